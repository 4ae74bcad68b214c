// Opaque page cursors for GET /urls and the audit log: the id of the last row on the page.
import { APIError } from "encore.dev/api";

// urls.id is a SERIAL (int4); a larger id could only come from a forged cursor.
const MAX_ID = 2 ** 31 - 1;

/** encodeCursor hides the id so clients treat the cursor as a token, not a number to compute with. */
export function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString("base64url");
}

/**
 * decodeCursor returns the id in a cursor made by encodeCursor, or fails with invalid_argument; `max` is
 * the largest id the table can hold (default: a SERIAL's).
 */
export function decodeCursor(cursor: string, max = MAX_ID): number {
  const match = /^id:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  // base64url decoding skips stray characters, so only a cursor that re-encodes identically is ours.
  if (match === null || Number(match[1]) > max || encodeCursor(Number(match[1])) !== cursor) {
    throw APIError.invalidArgument("invalid cursor");
  }
  return Number(match[1]);
}
