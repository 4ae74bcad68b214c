// What a code leads to right now, shared by the redirect, HEAD and stats.
import { APIError } from "encore.dev/api";
import { isLinkCode } from "./alias";
import { db } from "./db";

/** Gone says why a code leads nowhere: no such link, or a link past its expiry. */
export type Gone = "not_found" | "expired";

/** Resolution is a live link's target, or why the code leads nowhere. */
export type Resolution = { target: string } | { gone: Gone };

/** goneError is the not_found error a visitor sees for a code that leads nowhere. */
export function goneError(gone: Gone): APIError {
  return APIError.notFound(gone === "expired" ? "URL has expired" : "URL not found");
}

/**
 * peekLink resolves `code` without counting a click (HEAD). A link stops resolving at the instant
 * it expires: the database clock decides, as it does for counted clicks.
 */
export async function peekLink(code: string): Promise<Resolution> {
  if (!isLinkCode(code)) return { gone: "not_found" };
  const row = await db.queryRow<{ original_url: string; expired: boolean }>`
    SELECT original_url, (expires_at IS NOT NULL AND expires_at <= now()) AS expired FROM urls WHERE code = ${code}
  `;
  if (row === null) return { gone: "not_found" };
  return row.expired ? { gone: "expired" } : { target: row.original_url };
}
