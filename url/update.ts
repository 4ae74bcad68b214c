// PATCH /urls/:code: any of a link's fields but its code; a member changes its own links, an admin or owner any.
import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { currentActor, linkAccess } from "./access";
import { isLinkCode } from "./alias";
import { recordAudit } from "./audit-log";
import { ownHosts, publicBaseUrl } from "./base-url";
import { validateMaxClicks } from "./click-limit";
import { validateExpiry } from "./expiry";
import type { Link } from "./link";
import { linkPasswordHash } from "./link-password";
import { toLink, type LinkRow } from "./links";
import { validateTags, type Tag } from "./tags";
import { inTransaction } from "./transaction";
import { userLabels } from "./user-labels";
import { withUtm, type Utm } from "./utm";
import { validateTarget } from "./validate-target";
import { refuseBlockedTargets } from "./abuse/blocklist";

/** UpdateUrlRequest names the link and what to change; an absent field stays as it is, null removes it. */
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
  /** The link's tags from now on (at most 10), or null for none. */
  tags?: (Tag[] & MaxLen<10>) | null;
  /** Campaign parameters merged into the target (url if given, else the stored one); null removes all five. */
  utm?: Utm | null;
  /** Where iPhone and iPad visitors go, or null to send them to url. */
  iosUrl?: string | null;
  /** Where Android visitors go, or null to send them to url. */
  androidUrl?: string | null;
}

/** The fields a request can change, in the order "nothing to change" names them. */
const FIELDS = ["url", "expiresAt", "password", "maxClicks", "tags", "utm", "iosUrl", "androidUrl"] as const;

/** Settings are the stored columns a PATCH can change; the password only as whether there is one. */
interface Settings {
  original_url: string;
  expires_at: Date | null;
  has_password: boolean;
  max_clicks: number | null;
  tags: string[];
  ios_url: string | null;
  android_url: string | null;
}

/** settingsOf names a link's changeable settings as the audit log shows them. */
function settingsOf(row: Settings) {
  return {
    url: row.original_url,
    expiresAt: row.expires_at,
    hasPassword: row.has_password,
    maxClicks: row.max_clicks,
    tags: row.tags,
    iosUrl: row.ios_url,
    androidUrl: row.android_url,
  };
}

/** AUDITED maps each request field to the setting a link.updated entry shows before and after. */
const AUDITED: Record<(typeof FIELDS)[number], keyof ReturnType<typeof settingsOf>> = {
  url: "url",
  utm: "url",
  expiresAt: "expiresAt",
  password: "hasPassword",
  maxClicks: "maxClicks",
  tags: "tags",
  iosUrl: "iosUrl",
  androidUrl: "androidUrl",
};

/** pick keeps the named keys of `from`. */
function pick<T extends object>(from: T, keys: readonly (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, from[k]])) as Partial<T>;
}

/**
 * updateUrl changes a link, as the caller's role allows (url/roles.ts). The code and the QR image stay:
 * the image encodes the short URL, not the target. A link outside the caller's workspaces is
 * not_found, exactly like a missing one.
 */
export const updateUrl = api(
  { expose: true, auth: true, method: "PATCH", path: "/urls/:code" },
  async (req: UpdateUrlRequest): Promise<Link> => {
    const { code, url, expiresAt, password, maxClicks, tags, utm, iosUrl, androidUrl } = req;
    const actor = currentActor();
    if (FIELDS.every((field) => req[field] === undefined)) {
      throw APIError.invalidArgument(`nothing to change: give any of ${FIELDS.join(", ")}`);
    }
    const base = publicBaseUrl();
    const own = ownHosts(base);
    const target = url === undefined ? null : validateTarget(url, own);
    const expiry = expiresAt === undefined || expiresAt === null ? null : validateExpiry(expiresAt);
    const limit = maxClicks === undefined || maxClicks === null ? null : validateMaxClicks(maxClicks);
    const tagList = tags === undefined || tags === null ? [] : validateTags(tags);
    const ios = iosUrl === undefined || iosUrl === null ? null : validateTarget(iosUrl, own, "iosUrl");
    const android = androidUrl === undefined || androidUrl === null ? null : validateTarget(androidUrl, own, "androidUrl");
    if (!isLinkCode(code)) throw APIError.notFound("URL not found");
    // Hashing costs tens of milliseconds, so it comes after every cheap check and before the row's lock.
    const passwordHash = password === undefined || password === null ? null : await linkPasswordHash(password);
    const row = await inTransaction(async (tx) => {
      const link = await linkAccess(actor, code, "link.change", tx, true);
      const before = await tx.queryRow<Settings>`
        SELECT original_url, expires_at, password_hash IS NOT NULL AS has_password, max_clicks, tags, ios_url, android_url
        FROM urls WHERE id = ${link.id}
      `;
      // UTM parameters given without a url are merged into the stored target, read under the lock.
      const merged = utm === undefined ? target : withUtm(target ?? link.originalUrl, utm, own);
      await refuseBlockedTargets([merged, ios, android], tx);
      const after = await tx.queryRow<LinkRow>`
      UPDATE urls SET
        original_url = COALESCE(${merged}, original_url),
        expires_at = CASE WHEN ${expiresAt !== undefined} THEN ${expiry}::timestamptz ELSE expires_at END,
        password_hash = CASE WHEN ${password !== undefined} THEN ${passwordHash}::text ELSE password_hash END,
        max_clicks = CASE WHEN ${maxClicks !== undefined} THEN ${limit}::int ELSE max_clicks END,
        tags = CASE WHEN ${tags !== undefined} THEN ${tagList}::text[] ELSE tags END,
        ios_url = CASE WHEN ${iosUrl !== undefined} THEN ${ios}::text ELSE ios_url END,
        android_url = CASE WHEN ${androidUrl !== undefined} THEN ${android}::text ELSE android_url END
      WHERE id = ${link.id} AND disabled_at IS NULL
      RETURNING id, code, workspace_id::text AS workspace_id, creator, original_url, clicks, created_at, expires_at, last_clicked_at,
                password_hash IS NOT NULL AS has_password, max_clicks, tags, ios_url, android_url,
                disabled_at IS NOT NULL AS disabled, disabled_reason, flagged
    `;
      // linkAccess found the link and it is the caller's to change: only an admin's disabling stops it.
      if (after === null) throw APIError.permissionDenied("this link has been disabled");
      const fields = FIELDS.filter((field) => req[field] !== undefined).map((field) => AUDITED[field]);
      const details = { before: pick(settingsOf(before!), fields), after: pick(settingsOf(after!), fields) };
      await recordAudit(tx, { workspaceId: link.workspaceId, actor, action: "link.updated", target: { type: "link", id: code }, details });
      return after;
    });
    return toLink(row, base, await userLabels([row.creator]));
  },
);
