// What a client holds for a session: a short access token for every call, and a refresh token that
// it exchanges for new ones (POST /auth/refresh) before or when the access token expires.
import { issueToken } from "./jwt";
import { rotateRefreshToken, startSession, type SessionGrant } from "./sessions";

/** TokenResponse is what signup, login and refresh return. */
export interface TokenResponse {
  /** The access token for `Authorization: Bearer`; it lasts 15 minutes. */
  token: string;
  /** When the access token stops being accepted. */
  expiresAt: Date;
  /** Exchanged once at POST /auth/refresh for new tokens; kept secret like a password. */
  refreshToken: string;
  /** When the session ends unless refreshed before. */
  refreshExpiresAt: Date;
}

function tokensFor(user: { id: string; email: string }, grant: SessionGrant): TokenResponse {
  const access = issueToken(user, grant.sessionID);
  return { token: access.token, expiresAt: access.expiresAt, refreshToken: grant.refreshToken, refreshExpiresAt: grant.refreshExpiresAt };
}

/** signIn opens a session for the user ("stay signed in" when persistent) and returns its first tokens. */
export async function signIn(user: { id: string; email: string }, persistent: boolean): Promise<TokenResponse> {
  return tokensFor(user, await startSession(user.id, persistent));
}

/** refreshTokens exchanges a refresh token for the session's next tokens. */
export async function refreshTokens(refreshToken: string): Promise<TokenResponse> {
  const session = await rotateRefreshToken(refreshToken);
  return tokensFor(session.user, session);
}
