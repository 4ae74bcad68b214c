// How long links are kept: the cleanup job (url/cleanup.ts) deletes by these rules, and the web app
// tells each link's owner when that will be. Imports nothing, so both use the same numbers.

/**
 * A link with zero clicks is stale once it is STRICTLY older than this: created_at < now - 90×24h.
 * A link created exactly 90×24h ago stays until the next run. Fixed hours, not calendar days, so
 * the boundary does not move with the database session's time zone or DST.
 */
export const STALE_AFTER_MS = 90 * 24 * 60 * 60 * 1000;

/** An expired link is kept this long after it expires (its owner can still see it and revive it), then deleted. */
export const EXPIRED_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** The fields of a link that decide when it is removed. */
export interface Retained {
  clicks: number;
  createdAt: Date;
  expiresAt: Date | null;
}

/** RemovalReason says which rule will remove a link. */
export type RemovalReason = "never-clicked" | "expired";

/**
 * removalDate is the first moment the daily cleanup may delete `link` (it runs once a day, so the link
 * goes at the first run after it), and why; null when no rule will ever remove it.
 */
export function removalDate(link: Retained): { at: Date; reason: RemovalReason } | null {
  const unclicked = link.clicks === 0 ? link.createdAt.getTime() + STALE_AFTER_MS : Infinity;
  const expired = link.expiresAt === null ? Infinity : link.expiresAt.getTime() + EXPIRED_KEPT_MS;
  if (unclicked === Infinity && expired === Infinity) return null;
  return unclicked <= expired ? { at: new Date(unclicked), reason: "never-clicked" } : { at: new Date(expired), reason: "expired" };
}
