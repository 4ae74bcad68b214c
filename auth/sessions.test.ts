// Sessions over HTTP, as clients use them: refresh tokens rotated on each use, reuse ending the whole
// session, sliding and absolute expiry, log out and password change ending sessions for the API too,
// bans, and two refreshes racing with one token.
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { captureLogs, describeLocal, expectErrorResponse, singleConnectionDatabase, useTestServer, type Reply } from "../local/testing";
import { db } from "./db";
import { issueToken, verifyToken } from "./jwt";
import { SESSION_LIFETIMES } from "./sessions";

const password = "sessions test password";
const DAY_MS = 86_400_000;

interface Tokens {
  token: string;
  expiresAt: string;
  refreshToken: string;
  refreshExpiresAt: string;
}

function freshEmail(): string {
  return `sessions-${randomUUID()}@example.com`;
}

describeLocal("sessions over HTTP", () => {
  const { call } = useTestServer();

  const signup = (email: string, extra: object = {}) => call<Tokens>("POST", "/auth/signup", { body: { email, password, ...extra } });
  const login = (email: string, pw = password, extra: object = {}) =>
    call<Tokens>("POST", "/auth/login", { body: { email, password: pw, ...extra } });
  const refresh = (refreshToken: string) => call<Tokens>("POST", "/auth/refresh", { body: { refreshToken } });
  const me = (token: string) => call("GET", "/auth/me", { token });
  const logout = (options: { refreshToken?: string; token?: string }) =>
    call("POST", "/auth/logout", {
      body: options.refreshToken === undefined ? {} : { refreshToken: options.refreshToken },
      token: options.token,
    });
  const changePassword = (token: string, currentPassword: string, newPassword: string) =>
    call("POST", "/auth/password", { token, body: { currentPassword, newPassword } });

  async function newUser(extra: object = {}): Promise<{ email: string } & Tokens> {
    const email = freshEmail();
    const reply = await signup(email, extra);
    expect(reply.status).toBe(200);
    return { email, ...reply.body };
  }

  /** Expects the session behind these tokens to be over for both kinds of token. */
  async function expectEnded(tokens: Pick<Tokens, "token" | "refreshToken">): Promise<void> {
    await expectErrorResponse(await me(tokens.token), 401, { code: "unauthenticated", message: "session has ended" });
    expect((await refresh(tokens.refreshToken)).status).toBe(401);
  }

  /** Holds back, and requires, the warning a detected reuse logs (a green run prints no WRN lines). */
  const expectReuseWarning = () => captureLogs({ level: "WRN", msg: "a used refresh token was presented again; its session has ended" });

  describe("refresh", () => {
    it("rotates both tokens; the new access token works, the session lasts 30 more days", async () => {
      const user = await newUser();
      const before = Date.now();
      const next = await refresh(user.refreshToken);
      expect(next.status).toBe(200);
      expect(Object.keys(next.body).sort()).toEqual(["expiresAt", "refreshExpiresAt", "refreshToken", "token"]);
      expect(next.body.refreshToken).not.toBe(user.refreshToken);
      expect(verifyToken(next.body.token).sessionID).toBe(verifyToken(user.token).sessionID);
      expect((await me(next.body.token)).body.email).toBe(user.email);
      // The old access token stays good until it expires: it names a live session.
      expect((await me(user.token)).status).toBe(200);
      expect(Date.parse(next.body.refreshExpiresAt)).toBeGreaterThanOrEqual(before - 1000 + 30 * DAY_MS);
      // And the rotated one keeps going.
      expect((await refresh(next.body.refreshToken)).status).toBe(200);
    });

    it("ends the whole session when a rotated refresh token comes back", async () => {
      const warnings = expectReuseWarning();
      const user = await newUser();
      const next = (await refresh(user.refreshToken)).body;
      const stolen = await refresh(user.refreshToken);
      await expectErrorResponse(stolen, 401, {
        code: "unauthenticated",
        message: "refresh token was already used; the session has ended",
      });
      expect(warnings.lines).toHaveLength(1);
      // The rightful holder's newer tokens die with it, and so does the first access token.
      await expectEnded(next);
      await expectErrorResponse(await me(user.token), 401, { code: "unauthenticated", message: "session has ended" });
      const row = await db.queryRow<{ end_reason: string }>`
        SELECT end_reason FROM sessions WHERE id = ${verifyToken(user.token).sessionID}::text::bigint`;
      expect(row?.end_reason).toBe("refresh token reused");
    });

    it("refuses an unknown or malformed refresh token without touching any session", async () => {
      const user = await newUser();
      for (const token of [`rt_${"A".repeat(43)}`, "not-a-token", user.refreshToken.slice(0, -1)]) {
        await expectErrorResponse(await refresh(token), 401, { code: "unauthenticated", message: "invalid refresh token" });
      }
      expect((await refresh(user.refreshToken)).status).toBe(200);
      const empty = await refresh("");
      expect(empty.status).toBe(400);
    });

    it("lets exactly one of two simultaneous refreshes with one token win, and then ends the session as reuse", async () => {
      expectReuseWarning();
      const user = await newUser();
      const replies = await Promise.all([refresh(user.refreshToken), refresh(user.refreshToken)]);
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 401]);
      const winner = replies.find((r) => r.status === 200)!.body;
      // Only one successor exists, and since the server cannot tell the two callers apart, neither keeps the session.
      const issued = await db.queryRow<{ n: number }>`
        SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = ${verifyToken(user.token).sessionID}::text::bigint`;
      expect(issued?.n).toBe(2);
      await expectEnded(winner);
    });

    it(
      "lets exactly one of ten simultaneous refreshes win" + (singleConnectionDatabase ? " (PGlite runs them one after another)" : ""),
      async () => {
        const warnings = expectReuseWarning();
        const user = await newUser();
        const replies = await Promise.all(Array.from({ length: 10 }, () => refresh(user.refreshToken)));
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
        expect(replies.filter((r) => r.status === 401)).toHaveLength(9);
        // The first loser ends the session; the others find it ended already.
        expect(warnings.lines).toHaveLength(1);
      },
    );

    it("stores refresh tokens only as SHA-256 hashes", async () => {
      const user = await newUser();
      const sid = verifyToken(user.token).sessionID;
      const rows = await db.queryAll<Record<string, unknown>>`SELECT * FROM refresh_tokens WHERE session_id = ${sid}::text::bigint`;
      expect(rows.map((r) => r.token_hash)).toEqual([createHash("sha256").update(user.refreshToken).digest("hex")]);
      const session = await db.queryAll<Record<string, unknown>>`SELECT * FROM sessions WHERE id = ${sid}::text::bigint`;
      expect(JSON.stringify([rows, session])).not.toContain(user.refreshToken.slice(3));
    });
  });

  describe("expiry", () => {
    it("refuses an expired access token but refreshes its session", async () => {
      const user = await newUser();
      const { userID, sessionID } = verifyToken(user.token);
      const expired = issueToken({ id: userID, email: user.email }, sessionID, new Date(Date.now() - 3600_000)).token;
      await expectErrorResponse(await me(expired), 401, { code: "unauthenticated", message: "token expired" });
      const next = await refresh(user.refreshToken);
      expect(next.status).toBe(200);
      expect((await me(next.body.token)).status).toBe(200);
    });

    it("ends a session left unused past its end: both tokens refused", async () => {
      const user = await newUser();
      await db.exec`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${verifyToken(user.token).sessionID}::text::bigint`;
      await expectErrorResponse(await refresh(user.refreshToken), 401, { code: "unauthenticated", message: "session has ended" });
      await expectErrorResponse(await me(user.token), 401, { code: "unauthenticated", message: "session has ended" });
    });

    it("slides within the absolute lifetime: a 89-day-old session refreshes only up to day 90", async () => {
      const user = await newUser();
      const sid = verifyToken(user.token).sessionID;
      const created = await db.queryRow<{ created_at: Date }>`
        UPDATE sessions SET created_at = now() - interval '89 days' WHERE id = ${sid}::text::bigint RETURNING created_at`;
      const next = await refresh(user.refreshToken);
      expect(next.status).toBe(200);
      const cap = created!.created_at.getTime() + SESSION_LIFETIMES.persistent.absoluteSeconds * 1000;
      expect(Date.parse(next.body.refreshExpiresAt)).toBe(cap);
    });

    it("gives a session without 'stay signed in' 12 hours of disuse", async () => {
      const before = Date.now();
      const user = await newUser({ staySignedIn: false });
      const idle = SESSION_LIFETIMES.transient.idleSeconds * 1000;
      expect(Date.parse(user.refreshExpiresAt)).toBeGreaterThanOrEqual(before - 1000 + idle);
      expect(Date.parse(user.refreshExpiresAt)).toBeLessThan(before + 2 * idle);
      const relogged = await login(user.email, password, { staySignedIn: false });
      expect(Date.parse(relogged.body.refreshExpiresAt)).toBeLessThanOrEqual(Date.now() + 1000 + idle);
      const next = await refresh(relogged.body.refreshToken);
      expect(Date.parse(next.body.refreshExpiresAt)).toBeLessThanOrEqual(Date.now() + 1000 + idle);
    });
  });

  describe("log out", () => {
    it("by refresh token ends the session for both tokens, and only that session", async () => {
      const user = await newUser();
      const other = (await login(user.email)).body;
      const reply = await logout({ refreshToken: user.refreshToken });
      expect(reply.status).toBe(200);
      await expectEnded(user);
      expect((await me(other.token)).status).toBe(200);
      expect((await refresh(other.refreshToken)).status).toBe(200);
      // Ending it again, or a session nobody knows, is not an error.
      expect((await logout({ refreshToken: user.refreshToken })).status).toBe(200);
      expect((await logout({ refreshToken: `rt_${"B".repeat(43)}` })).status).toBe(200);
    });

    it("by access token ends the session it was issued in", async () => {
      const user = await newUser();
      expect((await logout({ token: user.token })).status).toBe(200);
      await expectEnded(user);
    });

    it("works with an expired access token beside the refresh token", async () => {
      const user = await newUser();
      const { userID, sessionID } = verifyToken(user.token);
      const expired = issueToken({ id: userID, email: user.email }, sessionID, new Date(Date.now() - 3600_000)).token;
      expect((await logout({ refreshToken: user.refreshToken, token: expired })).status).toBe(200);
      await expectEnded(user);
    });

    it("asks which session when given neither token", async () => {
      await expectErrorResponse(await logout({}), 400, {
        code: "invalid_argument",
        message: "name the session to end: send its refreshToken, or its access token as Authorization: Bearer",
      });
    });
  });

  describe("change password", () => {
    it("keeps this session, ends the others, and the new password is the one that logs in", async () => {
      const user = await newUser();
      const laptop = (await login(user.email)).body;
      const phone = (await login(user.email)).body;
      const reply = await changePassword(user.token, password, "a brand new password");
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ otherSessionsEnded: 2 });
      await expectEnded(laptop);
      await expectEnded(phone);
      expect((await me(user.token)).status).toBe(200);
      expect((await refresh(user.refreshToken)).status).toBe(200);
      await expectErrorResponse(await login(user.email), 401, { code: "unauthenticated", message: "invalid email or password" });
      expect((await login(user.email, "a brand new password")).status).toBe(200);
    });

    it("refuses a wrong current password, counting it toward the login throttle", async () => {
      const user = await newUser();
      for (let i = 0; i < 5; i++) {
        await expectErrorResponse(await changePassword(user.token, `guess ${i}`, "a brand new password"), 403, {
          code: "permission_denied",
          message: "current password is incorrect",
        });
      }
      const throttled = await changePassword(user.token, password, "a brand new password");
      expect(throttled.status).toBe(429);
      expect(throttled.body.code).toBe("resource_exhausted");
      expect((await login(user.email)).status).toBe(429);
    });

    it("refuses the same password again, a short one, and a call without a session", async () => {
      const user = await newUser();
      await expectErrorResponse(await changePassword(user.token, password, password), 400, {
        code: "invalid_argument",
        message: "newPassword must differ from the current password",
      });
      const short = await changePassword(user.token, password, "short");
      expect(short.status).toBe(400);
      expect(short.body.message).toContain("newPassword: length too short");
      const anonymous = await call("POST", "/auth/password", { body: { currentPassword: password, newPassword: "a brand new password" } });
      expect(anonymous.status).toBe(401);
      expect((await login(user.email)).status).toBe(200);
    });

    it("refuses an API key: keys have no password to prove", async () => {
      const user = await newUser();
      const workspaces = await call<{ workspaces: { id: string; personal: boolean }[] }>("GET", "/workspaces", { token: user.token });
      const personal = workspaces.body.workspaces.find((w) => w.personal)!;
      const key: Reply<{ key: string }> = await call("POST", `/workspaces/${personal.id}/keys`, {
        token: user.token,
        body: { name: "script", scopes: ["links:read"] },
      });
      expect(key.status).toBe(200);
      await expectErrorResponse(await changePassword(key.body.key, password, "a brand new password"), 403, {
        code: "permission_denied",
        message: "an API key cannot change the password: sign in with a password",
      });
    });
  });

  describe("ban", () => {
    it("ends every session of a banned account, and lifting the ban does not revive them", async () => {
      const admin = await newUser();
      vi.stubEnv("ADMIN_EMAILS", admin.email);
      try {
        const user = await newUser();
        const other = (await login(user.email)).body;
        const id = (await me(user.token)).body.id;
        expect((await call("PATCH", `/admin/users/${id}`, { token: admin.token, body: { banned: true } })).status).toBe(200);
        // A banned account's tokens are refused as unknown: it no longer counts as an account.
        await expectErrorResponse(await me(user.token), 401, { code: "unauthenticated", message: "invalid token" });
        expect((await refresh(other.refreshToken)).status).toBe(401);
        expect((await call("PATCH", `/admin/users/${id}`, { token: admin.token, body: { banned: false } })).status).toBe(200);
        await expectEnded(user);
        await expectEnded(other);
        expect((await login(user.email)).status).toBe(200);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });
});
