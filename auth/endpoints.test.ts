// Direct calls (no HTTP): these also run under `encore test`. The HTTP behaviour is in http.test.ts.
import { randomUUID } from "node:crypto";
import { ErrCode } from "encore.dev/api";
import { describe, expect, it } from "vitest";
import { auth as authService } from "~encore/clients";
import { auth } from "./auth";
import { db } from "./db";
import { verifyToken } from "./jwt";
import { login } from "./login";
import { signup } from "./signup";
import { rejection } from "../local/testing";

const password = "a long enough password";

function freshEmail(): string {
  return `direct-${randomUUID()}@example.com`;
}

describe("signup and login called directly", () => {
  it("signs up with a normalized email and logs in with any casing of it", async () => {
    const email = freshEmail();
    const { token } = await signup({ email: `  ${email.toUpperCase()} `, password });
    const claims = verifyToken(token);
    expect(claims.email).toBe(email);
    const again = await login({ email: email.toUpperCase(), password });
    expect(verifyToken(again.token)).toEqual({ ...claims, sessionID: expect.not.stringMatching(`^${claims.sessionID}$`) });
  });

  it("re-checks what validation would have caught, since direct calls skip it", async () => {
    const short = await rejection(signup({ email: freshEmail(), password: "short" }));
    expect(short.code).toBe(ErrCode.InvalidArgument);
    expect(short.message).toBe("password must be between 8 and 128 bytes");
    const long = await rejection(signup({ email: freshEmail(), password: "p".repeat(129) }));
    expect(long.code).toBe(ErrCode.InvalidArgument);
    const email = await rejection(signup({ email: "not an email", password }));
    expect(email.code).toBe(ErrCode.InvalidArgument);
    expect(email.message).toBe("email must be a valid address of at most 254 bytes");
  });

  it("refuses a second account for the same email, whatever the case", async () => {
    const email = freshEmail();
    await signup({ email, password });
    const err = await rejection(signup({ email: email.toUpperCase(), password }));
    expect(err.code).toBe(ErrCode.AlreadyExists);
    expect(err.message).toBe("email already registered");
  });

  it("answers a wrong password and an unknown email identically", async () => {
    const email = freshEmail();
    await signup({ email, password });
    const wrong = await rejection(login({ email, password: "not the password" }));
    const unknown = await rejection(login({ email: freshEmail(), password }));
    for (const err of [wrong, unknown]) {
      expect(err.code).toBe(ErrCode.Unauthenticated);
      expect(err.message).toBe("invalid email or password");
    }
  });

  it("refuses even the right password once an email is throttled", async () => {
    const email = freshEmail();
    await signup({ email, password });
    for (let i = 0; i < 5; i++) await rejection(login({ email, password: "guess" }));
    const err = await rejection(login({ email, password }));
    expect(err.code).toBe(ErrCode.ResourceExhausted);
  });
});

describe("me through the service client", () => {
  it("returns the account named by the caller's auth data", async () => {
    const email = freshEmail();
    const { userID } = verifyToken((await signup({ email, password })).token);
    const user = await authService.me({ authData: { userID, email } });
    expect(user).toEqual({ id: userID, email, createdAt: expect.any(Date) });
  });

  it("requires auth data", async () => {
    const err = await rejection(authService.me());
    expect(err.code).toBe(ErrCode.Unauthenticated);
  });
});

describe("auth handler called directly", () => {
  it("returns the user for a valid bearer token", async () => {
    const email = freshEmail();
    const { token } = await signup({ email, password });
    const data = await auth({ authorization: `Bearer ${token}` });
    const { userID, sessionID } = verifyToken(token);
    expect(data).toEqual({ userID, email, sessionID });
  });

  it.each(["", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer a b", "Bearer \u00ff", "Token x.y.z"])(
    "rejects the header %j as unauthenticated",
    async (header) => {
      const err = await rejection(auth({ authorization: header }));
      expect(err.code).toBe(ErrCode.Unauthenticated);
      expect(err.message).toBe("authorization header must be 'Bearer <token>'");
    },
  );

  it("rejects the token of a deleted user", async () => {
    const { token } = await signup({ email: freshEmail(), password });
    await db.exec`DELETE FROM users WHERE id = ${verifyToken(token).userID}::text::bigint`;
    const err = await rejection(auth({ authorization: `Bearer ${token}` }));
    expect(err.code).toBe(ErrCode.Unauthenticated);
    expect(err.message).toBe("invalid token");
  });
});
