// Credential checks repeated in the handlers: Encore validates HTTP requests against the
// types, but direct calls skip that, and the password rules are what keep accounts safe.
import { APIError } from "encore.dev/api";

// Keep in sync with the validate rules on SignupRequest and LoginRequest (type arguments must be literals).
/** EMAIL_MAX_BYTES is the longest email accepted (RFC 5321 path limit). */
export const EMAIL_MAX_BYTES = 254;
/** PASSWORD_MIN_BYTES is the shortest new password accepted. */
export const PASSWORD_MIN_BYTES = 8;
/** PASSWORD_MAX_BYTES caps passwords so hashing cost stays bounded. */
export const PASSWORD_MAX_BYTES = 128;

/** normalizeEmail is the form emails are stored and looked up in: trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** checkEmail rejects a normalized email that is too long or not shaped like local@domain. */
export function checkEmail(email: string): void {
  if (Buffer.byteLength(email, "utf8") > EMAIL_MAX_BYTES || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw APIError.invalidArgument("email must be a valid address of at most 254 bytes");
  }
}

/** checkPassword rejects a password outside the allowed length range (in UTF-8 bytes, as Encore counts). */
export function checkPassword(password: string, minBytes: number): void {
  const bytes = Buffer.byteLength(password, "utf8");
  if (bytes < minBytes || bytes > PASSWORD_MAX_BYTES) {
    throw APIError.invalidArgument(`password must be between ${minBytes} and ${PASSWORD_MAX_BYTES} bytes`);
  }
}
