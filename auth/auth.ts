// The app's gateway and its auth handler: `Authorization: Bearer <token>` becomes AuthData.
// Missing or bad credentials are unauthenticated; credentials that could not be checked (the auth
// database is down) are unavailable, so a client retries instead of logging its user out. Encore
// fails even public endpoints when the auth handler throws, so nothing else may escape it.
import { APIError, ErrCode, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import log from "encore.dev/log";
import { databaseUnavailable, isDatabaseFault } from "../lib/database-faults";
import { API_KEY_PREFIX } from "../lib/api-key-format";
import { verifyApiKey } from "./api-keys";
import { verifyToken } from "./jwt";
import { checkSession } from "./sessions";

interface AuthParams {
  authorization: Header<"Authorization">;
}

/**
 * AuthData identifies the caller; userID is users.id as a decimal string. A signed-in request carries
 * its session's id; a request with an API key carries the key's id, name, workspace and scopes
 * instead, and userID is the key's creator.
 */
export interface AuthData {
  userID: string;
  email: string;
  sessionID?: string;
  keyID?: string;
  keyName?: string;
  workspaceID?: string;
  scopes?: string[];
}

// RFC 6750 b64token after a case-insensitive "Bearer" scheme.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * auth verifies the bearer token (a JWT, or an API key when it starts with sk_). A JWT counts only while
 * its session is live and its user exists and is not banned: one query on two primary keys per request
 * (Encore calls the handler on every request and caches nothing: runtimes/core/src/api/auth/mod.rs), so
 * log out, a password change, a detected refresh-token reuse and a ban take effect on the next call.
 */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  try {
    const match = BEARER.exec(authorization.trim());
    if (!match) throw APIError.unauthenticated("authorization header must be 'Bearer <token>'");
    if (match[1].startsWith(API_KEY_PREFIX)) return await verifyApiKey(match[1]);
    const claims = verifyToken(match[1]);
    const session = await checkSession(claims.sessionID, claims.userID);
    if (!session) throw APIError.unauthenticated("invalid token");
    if (!session.live) throw APIError.unauthenticated("session has ended");
    return { userID: session.user.id, email: session.user.email, sessionID: claims.sessionID };
  } catch (err) {
    if (err instanceof APIError && (err.code === ErrCode.Unauthenticated || err.code === ErrCode.Unavailable)) throw err;
    if (isDatabaseFault(err)) throw databaseUnavailable("auth", err);
    // Anything else is a bug (a missing signing key): log it, but only deny this request's credentials.
    log.error(err, "auth handler failed; treating the request as unauthenticated");
    throw APIError.unauthenticated("could not verify credentials");
  }
});

/** gateway is the app's API gateway; it runs auth on every request carrying an Authorization header. */
export const gateway = new Gateway({ authHandler: auth });
