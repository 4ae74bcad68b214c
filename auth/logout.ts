import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { endSession, sessionOfRefreshToken } from "./sessions";

/** LogoutRequest names the session to end by its refresh token; without one, the caller's access token names it. */
export interface LogoutRequest {
  refreshToken?: string & MaxLen<200>;
}

/**
 * logout ends a session on the server: its refresh token and every access token issued in it stop
 * working at once. It needs no valid access token (one that expired is ignored), so a client can end a
 * session it can no longer call with. Ending an ended session, or one nobody knows, succeeds: there is
 * nothing left to end.
 */
export const logout = api({ expose: true, method: "POST", path: "/auth/logout" }, async (req: LogoutRequest): Promise<void> => {
  if (req.refreshToken !== undefined) {
    const sessionID = await sessionOfRefreshToken(req.refreshToken);
    if (sessionID !== null) await endSession(sessionID, "logout");
    return;
  }
  const auth = getAuthData();
  if (auth?.sessionID !== undefined) {
    await endSession(auth.sessionID, "logout");
    return;
  }
  if (auth?.keyID !== undefined) throw APIError.invalidArgument("an API key has no session to end: revoke the key instead");
  throw APIError.invalidArgument("name the session to end: send its refreshToken, or its access token as Authorization: Bearer");
});
