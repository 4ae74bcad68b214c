import { api } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { refreshTokens, type TokenResponse } from "./session-tokens";

/** RefreshRequest carries the refresh token from signup, login or the previous refresh. */
export interface RefreshRequest {
  refreshToken: string & MinLen<1> & MaxLen<200>;
}

/**
 * refresh exchanges a refresh token for a new access token and a new refresh token, and keeps the
 * session going (30 days, or 12 hours without "stay signed in", from now, within 90 days or a day in
 * all). The token works once: presenting it again ends the session. Needs no access token, so a client
 * whose access token expired calls it without one.
 */
export const refresh = api({ expose: true, method: "POST", path: "/auth/refresh" }, async (req: RefreshRequest): Promise<TokenResponse> => {
  return refreshTokens(req.refreshToken);
});
