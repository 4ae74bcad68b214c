// The orders GET /urls lists links in, and its page cursors for each: where the last page ended, in the
// order's own terms, so paging stays exact when links are added or deleted between pages.
import { APIError } from "encore.dev/api";
import { decodeCursor, encodeCursor } from "./cursor";

/** Newest first (the default), most clicked first, or by code (alias) A to Z. */
export const LIST_ORDERS = ["created", "clicks", "code"] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

/** After is where a page ended: the id for "created", clicks and id for "clicks", the code for "code". */
export interface After {
  id: number | null;
  clicks: number | null;
  code: string | null;
}

/** listOrder checks a sort parameter; absent is "created". */
export function listOrder(sort: string | undefined): ListOrder {
  if (sort === undefined || sort === "") return "created";
  const order = LIST_ORDERS.find((o) => o === sort);
  if (order === undefined) throw APIError.invalidArgument(`sort must be one of ${LIST_ORDERS.join(", ")}`);
  return order;
}

/** encodeAfter makes the cursor that continues after `row` in `order`. */
export function encodeAfter(order: ListOrder, row: { id: number; clicks: number; code: string }): string {
  if (order === "created") return encodeCursor(row.id);
  const text = order === "clicks" ? `clicks:${row.clicks}:${row.id}` : `code:${row.code}`;
  return Buffer.from(text).toString("base64url");
}

// Clicks and ids are int4 columns; a code is at most 64 of these characters.
const CLICKS_CURSOR = /^clicks:(0|[1-9]\d{0,9}):([1-9]\d{0,9})$/;
const CODE_CURSOR = /^code:([A-Za-z0-9_-]{1,64})$/;
const MAX_INT4 = 2 ** 31 - 1;

/** decodeAfter reads a cursor made by encodeAfter for the same order, or fails with invalid_argument. */
export function decodeAfter(order: ListOrder, cursor: string): After {
  if (order === "created") return { id: decodeCursor(cursor), clicks: null, code: null };
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  // base64url decoding skips stray characters, so only a cursor that re-encodes identically is ours.
  if (Buffer.from(text).toString("base64url") === cursor) {
    const clicks = CLICKS_CURSOR.exec(text);
    if (order === "clicks" && clicks && Number(clicks[1]) <= MAX_INT4 && Number(clicks[2]) <= MAX_INT4) {
      return { id: Number(clicks[2]), clicks: Number(clicks[1]), code: null };
    }
    const code = CODE_CURSOR.exec(text);
    if (order === "code" && code) return { id: null, clicks: null, code: code[1] };
  }
  throw APIError.invalidArgument("invalid cursor: pass the nextCursor of a page listed with the same sort");
}
