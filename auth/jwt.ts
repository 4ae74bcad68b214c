// HS256 access tokens: issued with each session's start and refresh (auth/sessions.ts), verified by
// the auth handler. Each names its session (`sid`), so ending the session ends the token at once.
//
// Signing key policy. The key is the secret JWTSecret and must be at least 32 bytes. Under
// `encore run`, `encore test` and the local runtime an unset secret reads as "" (Encore's
// runtimes/js/encore.dev/config/secrets.ts returns "" when the environment's cloud is local);
// only there (cloud "local" and an environment type other than "production") do we fall back to
// a random key generated once per process and announced with a warning. It is random rather than
// a constant in the source so that a deployment mislabelled as local can never accept tokens
// forged with a published key; the price is that local tokens do not survive a restart. Anywhere
// else, a missing or short secret is refused: signing and verifying throw an internal error and
// log why, instead of signing with an empty or guessable key.
import { createSecretKey, randomBytes, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import { appMeta } from "encore.dev";
import { APIError } from "encore.dev/api";
import { secret } from "encore.dev/config";
import log from "encore.dev/log";

const jwtSecret = secret("JWTSecret");

/** TOKEN_TTL_SECONDS is an access token's default lifetime: 15 minutes; clients then use their refresh token. */
export const TOKEN_TTL_SECONDS = 15 * 60;

/** The longest access lifetime ACCESS_TOKEN_TTL_SECONDS may ask for: a day. */
const MAX_TTL_SECONDS = 24 * 60 * 60;

/** accessTokenTtlSeconds is ACCESS_TOKEN_TTL_SECONDS (1 to 86400, read on each use so a test can shorten it) or the default. */
export function accessTokenTtlSeconds(): number {
  const raw = process.env.ACCESS_TOKEN_TTL_SECONDS;
  if (raw === undefined || raw === "") return TOKEN_TTL_SECONDS;
  const seconds = /^\s*\d{1,5}\s*$/.test(raw) ? Number(raw) : 0;
  if (seconds >= 1 && seconds <= MAX_TTL_SECONDS) return seconds;
  log.error(`invalid ACCESS_TOKEN_TTL_SECONDS="${raw}": expected 1 to ${MAX_TTL_SECONDS}; keeping ${TOKEN_TTL_SECONDS}`);
  return TOKEN_TTL_SECONDS;
}

/** TOKEN_ISSUER is the `iss` claim; tokens from any other issuer are rejected. */
export const TOKEN_ISSUER = "url-shortener/auth";

/** TOKEN_AUDIENCE is the `aud` claim; tokens meant for another audience are rejected. */
export const TOKEN_AUDIENCE = "url-shortener/api";

// The shortest JWTSecret accepted: HS256 wants a key at least as long as its 32-byte hash.
const MIN_SECRET_BYTES = 32;

/** AccessToken is a signed access token and when it stops being accepted. */
export interface AccessToken {
  token: string;
  expiresAt: Date;
}

/** TokenClaims are the verified claims the auth handler needs. */
export interface TokenClaims {
  userID: string;
  email: string;
  /** The session the token was issued in (sessions.id, a decimal string). */
  sessionID: string;
}

let devKey: Buffer | null = null;

/** signingKey returns the HMAC key per the policy at the top of this file, or throws internal. */
export function signingKey(): Buffer {
  const { cloud, type, name } = appMeta().environment;
  const local = cloud === "local" && type !== "production";
  // Outside local environments Encore's secret() throws when the secret is not set.
  let value: string;
  try {
    value = jwtSecret();
  } catch {
    value = "";
  }
  if (value === "" && local) {
    if (devKey === null) {
      devKey = randomBytes(32);
      log.warn(
        "JWTSecret is not set: signing tokens with a random development-only key that lasts until " +
          "this process exits; set JWTSecret in .secrets.local.cue to keep tokens across restarts",
      );
    }
    return devKey;
  }
  if (Buffer.byteLength(value, "utf8") < MIN_SECRET_BYTES) {
    log.error("JWTSecret is missing or shorter than 32 bytes; refusing to sign or verify tokens", {
      environment: name,
      cloud,
    });
    throw APIError.internal("token signing key is not configured");
  }
  return Buffer.from(value, "utf8");
}

let lastKey: { raw: Buffer; key: KeyObject } | null = null;

/**
 * hmacKey wraps the key as a KeyObject, once per key: given raw bytes, jsonwebtoken first tries to
 * parse them as a PEM public key on every call, which took a tenth of a request's CPU.
 */
function hmacKey(raw: Buffer): KeyObject {
  if (lastKey === null || !lastKey.raw.equals(raw)) lastKey = { raw, key: createSecretKey(raw) };
  return lastKey.key;
}

/** issueToken signs a token for user in session sessionID, valid for accessTokenTtlSeconds() from now. */
export function issueToken(user: { id: string; email: string }, sessionID: string, now: Date = new Date()): AccessToken {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + accessTokenTtlSeconds();
  const token = jwt.sign({ email: user.email, sid: sessionID, iat, exp }, hmacKey(signingKey()), {
    algorithm: "HS256",
    subject: user.id,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
  });
  return { token, expiresAt: new Date(exp * 1000) };
}

/** verifyToken checks signature (HS256 only), expiry, issuer and audience; bad tokens are unauthenticated. */
export function verifyToken(token: string): TokenClaims {
  const key = hmacKey(signingKey());
  let payload: string | jwt.JwtPayload;
  try {
    payload = jwt.verify(token, key, {
      algorithms: ["HS256"],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
    });
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError) throw APIError.unauthenticated("token expired");
    throw APIError.unauthenticated("invalid token");
  }
  // Our tokens always carry these; anything else was not issued by issueToken.
  if (
    typeof payload !== "object" ||
    typeof payload.exp !== "number" ||
    typeof payload.sub !== "string" ||
    !isRowId(payload.sub) ||
    typeof payload.email !== "string" ||
    typeof payload.sid !== "string" ||
    !isRowId(payload.sid)
  ) {
    throw APIError.unauthenticated("invalid token");
  }
  return { userID: payload.sub, email: payload.email, sessionID: payload.sid };
}

/** A users.id or sessions.id as issueToken writes it: a positive decimal that fits BIGINT (so lookups cannot overflow). */
function isRowId(id: string): boolean {
  return /^[1-9][0-9]{0,18}$/.test(id) && BigInt(id) <= 9223372036854775807n;
}
