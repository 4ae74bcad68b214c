import jwt from "jsonwebtoken";
import { APIError, ErrCode } from "encore.dev/api";
import log from "encore.dev/log";
import { describe, expect, it, vi } from "vitest";
import { badTokens, wellFormedToken } from "./__tests__/tokens";
import { accessTokenTtlSeconds, issueToken, TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TTL_SECONDS, verifyToken } from "./jwt";

const user = { id: "42", email: "jwt-test@example.com", sessionID: "7" };

function rejection(token: string): unknown {
  try {
    verifyToken(token);
  } catch (err) {
    return err;
  }
  throw new Error("token was accepted");
}

describe("access tokens", () => {
  it("issues an HS256 token with subject, email, session, issuer, audience and a 15-minute expiry", () => {
    const now = new Date();
    const { token, expiresAt } = issueToken(user, user.sessionID, now);
    const decoded = jwt.decode(token, { complete: true });
    expect(decoded?.header.alg).toBe("HS256");
    expect(decoded?.payload).toMatchObject({ sub: "42", email: user.email, sid: "7", iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    const { iat, exp } = decoded?.payload as jwt.JwtPayload;
    expect(exp! - iat!).toBe(TOKEN_TTL_SECONDS);
    expect(expiresAt.getTime()).toBe(exp! * 1000);
    expect(TOKEN_TTL_SECONDS).toBe(15 * 60);
  });

  it("verifies its own tokens", () => {
    const claims = { userID: "42", email: user.email, sessionID: "7" };
    expect(verifyToken(issueToken(user, user.sessionID).token)).toEqual(claims);
    expect(verifyToken(wellFormedToken(user))).toEqual(claims);
  });

  it("takes its lifetime from ACCESS_TOKEN_TTL_SECONDS, and logs and ignores a bad value", () => {
    vi.stubEnv("ACCESS_TOKEN_TTL_SECONDS", "5");
    expect(accessTokenTtlSeconds()).toBe(5);
    const { iat, exp } = jwt.decode(issueToken(user, user.sessionID).token) as jwt.JwtPayload;
    expect(exp! - iat!).toBe(5);
    const error = vi.spyOn(log, "error").mockImplementation(() => {});
    for (const bad of ["0", "-1", "1.5", "ten", "86401"]) {
      vi.stubEnv("ACCESS_TOKEN_TTL_SECONDS", bad);
      expect(accessTokenTtlSeconds(), bad).toBe(TOKEN_TTL_SECONDS);
      expect(error).toHaveBeenLastCalledWith(expect.stringContaining(`invalid ACCESS_TOKEN_TTL_SECONDS="${bad}"`));
    }
    vi.unstubAllEnvs();
    error.mockRestore();
  });

  it.each(Object.entries(badTokens(user)))("rejects a token with flaw: %s", (flaw, token) => {
    const err = rejection(token);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).code).toBe(ErrCode.Unauthenticated);
    expect((err as APIError).message).toBe(flaw === "expired" ? "token expired" : "invalid token");
  });
});
