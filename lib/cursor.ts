// Opaque page cursors for keyset paging (GET /urls, a webhook's deliveries): the id of the last row on the page.
import { APIError } from "encore.dev/api";

/** The largest SERIAL (int4) id, as urls.id is; a larger id could only come from a forged cursor. */
export const MAX_SERIAL_ID = 2 ** 31 - 1;

/** encodeCursor hides the id so clients treat the cursor as a token, not a number to compute with. */
export function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString("base64url");
}

/** decodeCursor returns the id (at most maxId) in a cursor made by encodeCursor, or fails with invalid_argument. */
export function decodeCursor(cursor: string, maxId = MAX_SERIAL_ID): number {
  const match = /^id:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  // base64url decoding skips stray characters, so only a cursor that re-encodes identically is ours.
  if (match === null || Number(match[1]) > maxId || encodeCursor(Number(match[1])) !== cursor) {
    throw APIError.invalidArgument("invalid cursor");
  }
  return Number(match[1]);
}
