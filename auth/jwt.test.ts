import jwt from "jsonwebtoken";
import { APIError, ErrCode } from "encore.dev/api";
import { describe, expect, it } from "vitest";
import { badTokens, wellFormedToken } from "./__tests__/tokens";
import { issueToken, TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TTL_SECONDS, verifyToken } from "./jwt";

const user = { id: "42", email: "jwt-test@example.com" };

function rejection(token: string): unknown {
  try {
    verifyToken(token);
  } catch (err) {
    return err;
  }
  throw new Error("token was accepted");
}

describe("access tokens", () => {
  it("issues an HS256 token with subject, email, issuer, audience and a one-hour expiry", () => {
    const now = new Date();
    const { token, expiresAt } = issueToken(user, now);
    const decoded = jwt.decode(token, { complete: true });
    expect(decoded?.header.alg).toBe("HS256");
    expect(decoded?.payload).toMatchObject({ sub: "42", email: user.email, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE });
    const { iat, exp } = decoded?.payload as jwt.JwtPayload;
    expect(exp! - iat!).toBe(TOKEN_TTL_SECONDS);
    expect(expiresAt.getTime()).toBe(exp! * 1000);
    expect(TOKEN_TTL_SECONDS).toBe(3600);
  });

  it("verifies its own tokens", () => {
    expect(verifyToken(issueToken(user).token)).toEqual({ userID: "42", email: user.email });
    expect(verifyToken(wellFormedToken(user))).toEqual({ userID: "42", email: user.email });
  });

  it.each(Object.entries(badTokens(user)))("rejects a token with flaw: %s", (flaw, token) => {
    const err = rejection(token);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).code).toBe(ErrCode.Unauthenticated);
    expect((err as APIError).message).toBe(flaw === "expired" ? "token expired" : "invalid token");
  });
});
