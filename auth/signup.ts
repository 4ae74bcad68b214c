import { api, APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { url } from "~encore/clients";
import type { IsEmail, MaxLen, MinLen } from "encore.dev/validate";
import { checkEmail, checkPassword, normalizeEmail, PASSWORD_MIN_BYTES } from "./credentials";
import { limitSignup } from "./limits";
import { hashPassword } from "./password";
import { signIn, type TokenResponse } from "./session-tokens";
import { insertUser } from "./users";

/** SignupRequest is a new account's credentials. */
export interface SignupRequest {
  email: string & IsEmail & MaxLen<254>;
  password: string & MinLen<8> & MaxLen<128>;
  /** As at login: true (the default) keeps the new session for 30 days of disuse. */
  staySignedIn?: boolean;
}

/** signup creates an account with its personal workspace and signs it in; rate limited per client address. */
export const signup = api({ expose: true, method: "POST", path: "/auth/signup" }, async (req: SignupRequest): Promise<TokenResponse> => {
  const email = normalizeEmail(req.email);
  checkEmail(email);
  checkPassword(req.password, PASSWORD_MIN_BYTES);
  await limitSignup();
  const user = await insertUser(email, await hashPassword(req.password));
  if (!user) throw APIError.alreadyExists("email already registered");
  // The account is made; should its workspace not be, the url service makes it on first use.
  await url
    .ensurePersonalWorkspace({ userID: user.id, email: user.email })
    .catch((err) => log.error(err, "could not create the personal workspace at signup"));
  return signIn(user, req.staySignedIn ?? true);
});
