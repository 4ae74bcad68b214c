// PATCH /urls/:code: the owner changes where a link points or when it expires.
import { api, APIError } from "encore.dev/api";
import { isLinkCode } from "./alias";
import { ownHosts, publicBaseUrl } from "./base-url";
import { callerID } from "./caller";
import { db } from "./db";
import { validateExpiry } from "./expiry";
import type { Link } from "./link";
import { toLink, type LinkRow } from "./links";
import { validateTarget } from "./validate-target";

/** UpdateUrlRequest names the link and what to change; an absent field stays as it is. */
export interface UpdateUrlRequest {
  code: string;
  /** The new target, checked like POST /shorten's. */
  url?: string;
  /** A new expiry (future, at most 5 years ahead), or null to remove it. */
  expiresAt?: Date | null;
}

/**
 * updateUrl changes one of the caller's links. The code and the QR image stay: the image encodes the
 * short URL, not the target. Someone else's link is not_found, exactly like a missing one.
 */
export const updateUrl = api(
  { expose: true, auth: true, method: "PATCH", path: "/urls/:code" },
  async ({ code, url, expiresAt }: UpdateUrlRequest): Promise<Link> => {
    const creator = callerID();
    if (url === undefined && expiresAt === undefined) {
      throw APIError.invalidArgument("nothing to change: give url, expiresAt or both");
    }
    const base = publicBaseUrl();
    const target = url === undefined ? null : validateTarget(url, ownHosts(base));
    const expiry = expiresAt === undefined || expiresAt === null ? null : validateExpiry(expiresAt);
    const row = isLinkCode(code)
      ? await db.queryRow<LinkRow>`
          UPDATE urls SET
            original_url = COALESCE(${target}, original_url),
            expires_at = CASE WHEN ${expiresAt !== undefined} THEN ${expiry}::timestamptz ELSE expires_at END
          WHERE code = ${code} AND creator = ${creator}
          RETURNING id, code, original_url, clicks, created_at, expires_at, last_clicked_at
        `
      : null;
    if (row === null) throw APIError.notFound("URL not found");
    return toLink(row, base);
  },
);
