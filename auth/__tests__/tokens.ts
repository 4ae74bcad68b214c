// Hand-made tokens for the auth tests: each is valid except for exactly one flaw, so a test that
// sees it rejected proves that one check. Lives in __tests__ so Encore does not bundle it.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import jwt from "jsonwebtoken";
import { issueToken, signingKey, TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TTL_SECONDS } from "../jwt";

/** TokenUser is whom a test token is for: an account and the session it was issued in. */
export interface TokenUser {
  id: string;
  email: string;
  sessionID: string;
}

function claims(user: TokenUser) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: user.id, email: user.email, sid: user.sessionID, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: now, exp: now + 600 };
}

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** wellFormedToken is a token built by hand the way the bad ones are, but with no flaw. */
export function wellFormedToken(user: TokenUser): string {
  return jwt.sign(claims(user), signingKey(), { algorithm: "HS256" });
}

/** badTokens maps a flaw's name to a token for user that has only that flaw. */
export function badTokens(user: TokenUser): Record<string, string> {
  const key = signingKey();
  const good = claims(user);
  const [header, , signature] = wellFormedToken(user).split(".");
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const expiredAt = new Date(Date.now() - 2 * TOKEN_TTL_SECONDS * 1000);
  const { exp: _exp, ...noExpiry } = good;
  const { sid: _sid, ...noSession } = good;
  return {
    malformed: "not.a.jwt",
    "wrong signature": jwt.sign(good, randomBytes(32), { algorithm: "HS256" }),
    // Another user: a sub that differs from the signed one whatever id this user got.
    "tampered payload": [header, b64({ ...good, sub: String(Number(good.sub) + 1) }), signature].join("."),
    "alg none": [b64({ alg: "none", typ: "JWT" }), b64(good), ""].join("."),
    "alg none with the real signature": [b64({ alg: "none", typ: "JWT" }), b64(good), signature].join("."),
    "HS512 with the right key": jwt.sign(good, key, { algorithm: "HS512" }),
    RS256: jwt.sign(good, privateKey, { algorithm: "RS256" }),
    expired: issueToken(user, user.sessionID, expiredAt).token,
    "wrong issuer": jwt.sign({ ...good, iss: "someone-else" }, key, { algorithm: "HS256" }),
    "wrong audience": jwt.sign({ ...good, aud: "another-app" }, key, { algorithm: "HS256" }),
    "no expiry": jwt.sign(noExpiry, key, { algorithm: "HS256" }),
    "non-numeric subject": jwt.sign({ ...good, sub: "admin" }, key, { algorithm: "HS256" }),
    "subject beyond BIGINT": jwt.sign({ ...good, sub: "9223372036854775808" }, key, { algorithm: "HS256" }),
    // Issued before sessions existed, or by someone else: nothing to check it against.
    "no session id": jwt.sign(noSession, key, { algorithm: "HS256" }),
    "non-numeric session id": jwt.sign({ ...good, sid: "1 OR 1=1" }, key, { algorithm: "HS256" }),
  };
}
