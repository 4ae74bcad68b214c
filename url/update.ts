// PATCH /urls/:code: the owner changes where a link points, when it expires, its password or its click limit.
import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { isLinkCode } from "./alias";
import { ownHosts, publicBaseUrl } from "./base-url";
import { callerID } from "./caller";
import { db } from "./db";
import { validateExpiry } from "./expiry";
import type { Link } from "./link";
import { toLink, type LinkRow } from "./links";
import { validateTarget } from "./validate-target";
import { validateMaxClicks } from "./click-limit";
import { linkPasswordHash } from "./link-password";

/** UpdateUrlRequest names the link and what to change; an absent field stays as it is. */
export interface UpdateUrlRequest {
  code: string;
  /** The new target, checked like POST /shorten's. */
  url?: string;
  /** A new expiry (future, at most 5 years ahead), or null to remove it. */
  expiresAt?: Date | null;
  /** A new password for visitors (8 to 128 characters), or null to remove it. */
  password?: (string & MinLen<8> & MaxLen<512>) | null;
  /** A new click limit (1 to 10^9), or null to remove it. A limit at or below the clicks so far stops the link. */
  maxClicks?: (number & Min<1> & Max<1000000000>) | null;
}

/**
 * updateUrl changes one of the caller's links. The code and the QR image stay: the image encodes the
 * short URL, not the target. Someone else's link is not_found, exactly like a missing one.
 */
export const updateUrl = api(
  { expose: true, auth: true, method: "PATCH", path: "/urls/:code" },
  async ({ code, url, expiresAt, password, maxClicks }: UpdateUrlRequest): Promise<Link> => {
    const creator = callerID();
    if ([url, expiresAt, password, maxClicks].every((field) => field === undefined)) {
      throw APIError.invalidArgument("nothing to change: give url, expiresAt, password or maxClicks");
    }
    const base = publicBaseUrl();
    const target = url === undefined ? null : validateTarget(url, ownHosts(base));
    const expiry = expiresAt === undefined || expiresAt === null ? null : validateExpiry(expiresAt);
    const limit = maxClicks === undefined || maxClicks === null ? null : validateMaxClicks(maxClicks);
    if (!isLinkCode(code)) throw APIError.notFound("URL not found");
    // Hashing costs tens of milliseconds, so it comes after every cheap check.
    const passwordHash = password === undefined || password === null ? null : await linkPasswordHash(password);
    const row = await db.queryRow<LinkRow>`
      UPDATE urls SET
        original_url = COALESCE(${target}, original_url),
        expires_at = CASE WHEN ${expiresAt !== undefined} THEN ${expiry}::timestamptz ELSE expires_at END,
        password_hash = CASE WHEN ${password !== undefined} THEN ${passwordHash}::text ELSE password_hash END,
        max_clicks = CASE WHEN ${maxClicks !== undefined} THEN ${limit}::int ELSE max_clicks END
      WHERE code = ${code} AND creator = ${creator}
      RETURNING id, code, original_url, clicks, created_at, expires_at, last_clicked_at,
                password_hash IS NOT NULL AS has_password, max_clicks
    `;
    if (row === null) throw APIError.notFound("URL not found");
    return toLink(row, base);
  },
);
