import { randomBytes } from "node:crypto";
import { api, APIError } from "encore.dev/api";
import type { IsEmail, MaxLen, MinLen } from "encore.dev/validate";
import { checkEmail, checkPassword, normalizeEmail } from "./credentials";
import { limitLogin } from "./limits";
import { hashPassword, verifyPassword } from "./password";
import { signIn, type TokenResponse } from "./session-tokens";
import { clearLoginFailures, reserveLoginAttempt } from "./throttle";
import { findUserWithHash } from "./users";

/** LoginRequest is an existing account's credentials; any non-empty password, so a stricter signup rule never locks out old accounts. */
export interface LoginRequest {
  email: string & IsEmail & MaxLen<254>;
  password: string & MinLen<1> & MaxLen<128>;
  /** Keep the session for 30 days of disuse (the default); false ends it after 12 hours unused. */
  staySignedIn?: boolean;
}

// Unknown emails are checked against this hash so they cost the same scrypt work as a wrong
// password; computed at startup so the first such login is not slower than the rest.
const dummyHash = hashPassword(randomBytes(32).toString("base64url"));

/**
 * login exchanges an email and password for a new session's tokens. Attempts are limited per client address first,
 * so one address cannot spend many emails' failure budgets; then failures are throttled per email.
 */
export const login = api({ expose: true, method: "POST", path: "/auth/login" }, async (req: LoginRequest): Promise<TokenResponse> => {
  const email = normalizeEmail(req.email);
  checkEmail(email);
  checkPassword(req.password, 1);
  await limitLogin();
  await reserveLoginAttempt(email);
  const user = await findUserWithHash(email);
  const matches = await verifyPassword(req.password, user?.passwordHash ?? (await dummyHash));
  if (!user || !matches) throw APIError.unauthenticated("invalid email or password");
  // Said only to someone who knows the password.
  if (user.banned) throw APIError.permissionDenied("this account has been banned");
  await clearLoginFailures(email);
  return signIn(user, req.staySignedIn ?? true);
});
