// Link passwords: kept only as salted scrypt hashes, with the same costs and format as account passwords.
import { APIError } from "encore.dev/api";
import { hashPassword, verifyPassword } from "../auth/password";
import { linkPasswordProblem } from "./link-rules";

/**
 * validateLinkPassword returns a new link password if it is 8 to 128 characters long. The request types
 * bound it in UTF-8 bytes (what Encore's validation counts); this counts characters, as the message says.
 */
export function validateLinkPassword(password: string): string {
  const problem = linkPasswordProblem(password);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return password;
}

/** linkPasswordHash checks a new link password and returns its hash. */
export function linkPasswordHash(password: string): Promise<string> {
  return hashPassword(validateLinkPassword(password));
}

/** linkPasswordMatches compares a visitor's password with the link's hash in constant time. */
export function linkPasswordMatches(password: string, hash: string): Promise<boolean> {
  return verifyPassword(password, hash);
}
