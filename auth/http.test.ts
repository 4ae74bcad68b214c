// The auth service over HTTP, as clients see it: status codes, Encore error bodies, the gateway.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse, useTestServer } from "../local/testing";
import { badTokens } from "./__tests__/tokens";
import { db } from "./db";
import { verifyToken } from "./jwt";
import { SCRYPT_PARAMS } from "./password";

const password = "http test password";

function freshEmail(): string {
  return `http-${randomUUID()}@Example.com`;
}

describeLocal("auth over HTTP", () => {
  const { call } = useTestServer();
  const withAuthorization = (authorization?: string) => (authorization === undefined ? {} : { headers: { Authorization: authorization } });

  const signup = (email: string, pw = password) => call("POST", "/auth/signup", { body: { email, password: pw } });
  const login = (email: string, pw = password) => call("POST", "/auth/login", { body: { email, password: pw } });
  const me = (authorization?: string) => call("GET", "/auth/me", withAuthorization(authorization));

  async function newUser(): Promise<{ email: string; token: string; id: string; sessionID: string }> {
    const email = freshEmail();
    const { status, body } = await signup(email);
    expect(status).toBe(200);
    const who = await me(`Bearer ${body.token}`);
    return { email: email.toLowerCase(), token: body.token, id: who.body.id, sessionID: verifyToken(body.token).sessionID };
  }

  it("signs up, returns a 15-minute access token and a 30-day refresh token, and /auth/me shows the normalized account", async () => {
    const email = freshEmail();
    const before = Date.now();
    const { status, body } = await signup(email);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["expiresAt", "refreshExpiresAt", "refreshToken", "token"]);
    // Issued between before and after, for 15 minutes (exp has whole-second precision).
    const expiresAt = Date.parse(body.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before - 1000 + 900 * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 900 * 1000);
    expect(body.refreshToken).toMatch(/^rt_[A-Za-z0-9_-]{43}$/);
    const refreshExpiresAt = Date.parse(body.refreshExpiresAt);
    expect(refreshExpiresAt).toBeGreaterThanOrEqual(before - 1000 + 30 * 86400 * 1000);
    expect(refreshExpiresAt).toBeLessThanOrEqual(Date.now() + 1000 + 30 * 86400 * 1000);

    const who = await me(`Bearer ${body.token}`);
    expect(who.status).toBe(200);
    expect(who.body).toEqual({ id: expect.stringMatching(/^[1-9][0-9]*$/), email: email.toLowerCase(), createdAt: expect.any(String) });
    expect(Math.abs(Date.parse(who.body.createdAt) - before)).toBeLessThan(60 * 1000);
  });

  it("logs in with any casing of the email and the token works", async () => {
    const user = await newUser();
    const { status, body } = await login(user.email.toUpperCase());
    expect(status).toBe(200);
    expect((await me(`Bearer ${body.token}`)).body.id).toBe(user.id);
  });

  it("refuses a duplicate email with 409 already_exists", async () => {
    const user = await newUser();
    await expectErrorResponse(await signup(user.email.toUpperCase()), 409, { code: "already_exists", message: "email already registered" });
  });

  it.each([
    ["an invalid email", { email: "not-an-email", password }, "email: value is not an email"],
    ["a short password", { email: "short@example.com", password: "1234567" }, "password: length too short"],
    ["a long password", { email: "long@example.com", password: "x".repeat(129) }, "password: length too long"],
  ])("rejects %s with 400 invalid_argument", async (_, request, message) => {
    const { status, body } = await call("POST", "/auth/signup", { body: request });
    expect(status).toBe(400);
    expect(body.code).toBe("invalid_argument");
    expect(body.message).toContain("unable to decode request body");
    expect(body.message).toContain(message);
  });

  it("answers a wrong password and an unknown email with the same 401", async () => {
    const user = await newUser();
    const wrong = await login(user.email, "wrong password!");
    const unknown = await login(freshEmail());
    for (const reply of [wrong, unknown]) {
      await expectErrorResponse(reply, 401, { code: "unauthenticated", message: "invalid email or password" });
    }
  });

  it("throttles an email after 5 failed logins with 429 resource_exhausted, even for the right password", async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) expect((await login(user.email, `guess number ${i}`)).status).toBe(401);
    for (const pw of ["guess number 5", password]) {
      const reply = await login(user.email, pw);
      const body = reply.body;
      await expectErrorResponse(reply, 429, {
        code: "resource_exhausted",
        message: "too many failed login attempts, try again later",
        details: { retryAfterSeconds: expect.any(Number) },
      });
      expect(body.details.retryAfterSeconds).toBeGreaterThan(14 * 60);
      expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    }
    // Unknown emails are throttled alike, so the 429 says nothing about which accounts exist.
    const unknown = freshEmail();
    for (let i = 0; i < 5; i++) await login(unknown);
    expect((await login(unknown)).status).toBe(429);
  });

  it("requires a token for /auth/me", async () => {
    const { status, body } = await me();
    expect(status).toBe(401);
    expect(body.code).toBe("unauthenticated");
  });

  it("rejects every kind of bad token with 401 unauthenticated", async () => {
    const user = await newUser();
    const cases: [string, string, string][] = [
      ["no Bearer scheme", `Token ${user.token}`, "authorization header must be 'Bearer <token>'"],
      ["garbage header", "garbage", "authorization header must be 'Bearer <token>'"],
      ...Object.entries(badTokens(user)).map(([flaw, token]): [string, string, string] => [
        flaw,
        `Bearer ${token}`,
        flaw === "expired" ? "token expired" : "invalid token",
      ]),
    ];
    for (const [flaw, authorization, message] of cases) {
      const reply = await me(authorization);
      expect(reply.body.message, flaw).toBe(message);
      await expectErrorResponse(reply, 401, { code: "unauthenticated", message });
    }
  });

  it("rejects the token of a deleted user", async () => {
    const user = await newUser();
    await db.exec`DELETE FROM users WHERE id = ${user.id}::text::bigint`;
    await expectErrorResponse(await me(`Bearer ${user.token}`), 401, { code: "unauthenticated", message: "invalid token" });
  });

  it("keeps public endpoints working when the Authorization header is garbage", async () => {
    const user = await newUser();
    for (const authorization of ["garbage", "Bearer not.a.jwt", `Bearer ${badTokens(user)["alg none"]}`]) {
      const { status, body } = await call("POST", "/auth/login", {
        body: { email: user.email, password },
        ...withAuthorization(authorization),
      });
      expect(status).toBe(200);
      expect(typeof body.token).toBe("string");
    }
  });

  it("stores only a scrypt hash, never the password", async () => {
    const email = freshEmail();
    const secretPassword = `Pw-${randomUUID()}`;
    expect((await signup(email, secretPassword)).status).toBe(200);
    const row = await db.queryRow<Record<string, unknown>>`SELECT * FROM users WHERE email = ${email.toLowerCase()}`;
    expect(row).not.toBeNull();
    const { N, r, p } = SCRYPT_PARAMS;
    expect(row!.password_hash).toMatch(new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9_-]+\\$[A-Za-z0-9_-]+$`));
    expect(JSON.stringify(row)).not.toContain(secretPassword);
  });
});
