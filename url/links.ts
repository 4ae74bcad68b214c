// GET /urls, GET /urls/:code and DELETE /urls/:code: the links of a workspace, as its roles allow.
import { api, APIError, type Query } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { ObjectNotFound } from "encore.dev/storage/objects";
import log from "encore.dev/log";
import { publicBaseUrl, shortUrl } from "./base-url";
import { qrCodes } from "./bucket";
import { currentActor, linkAccess, workspaceAccess } from "./access";
import { recordAudit } from "./audit-log";
import { db } from "./db";
import type { Link } from "./link";
import { decodeAfter, encodeAfter, listOrder } from "./list-order";
import { qrCodeUrl, qrObjectName } from "./qr";
import { validateTag } from "./tags";
import { inTransaction } from "./transaction";
import { userLabels } from "./user-labels";

/** PAGE_SIZE is how many links one GET /urls page holds. */
export const PAGE_SIZE = 20;

/** ListUrlsRequest picks the page, and optionally a tag, a search and the order. */
export interface ListUrlsRequest {
  /** nextCursor from the previous page; absent for the first page. Pass the same tag, q and sort with it. */
  cursor?: Query<string>;
  /**
   * "created" (newest first, the default), "clicks" (most first; links whose count changes between pages
   * may show twice or not at all) or "code" (code or alias, A to Z, capitals first).
   */
  sort?: Query<string>;
  /** Only links with this tag (any letter case). */
  tag?: Query<string>;
  /** Only links whose code (or alias) or target contains this text, in any letter case; at most 200 characters. */
  q?: Query<string & MaxLen<800>>;
  /** The workspace whose links to list; default: the caller's personal one. */
  workspaceId?: Query<string>;
}

/** The longest search text, in characters. */
const MAX_SEARCH = 200;

/** ListUrlsResponse is one page of links, in the order asked for. */
export interface ListUrlsResponse {
  urls: Link[];
  /** Present when more links follow; pass it as `cursor`. */
  nextCursor?: string;
}

/** UrlRequest names one link: its code or alias. */
export interface UrlRequest {
  code: string;
}

/** LinkRow is a urls row as the link endpoints select it. */
export interface LinkRow {
  id: number;
  code: string;
  workspace_id: string;
  creator: string;
  original_url: string;
  clicks: number;
  created_at: Date;
  expires_at: Date | null;
  last_clicked_at: Date | null;
  has_password: boolean;
  max_clicks: number | null;
  tags: string[];
  ios_url: string | null;
  android_url: string | null;
  disabled_reason: string | null;
  disabled: boolean;
  flagged: boolean;
}

/** toLink describes a stored link to a member of its workspace; `emails` labels creators by user ID. */
export function toLink(row: LinkRow, base: string, emails: Map<string, string>): Link {
  return {
    code: row.code,
    workspaceId: row.workspace_id,
    creator: { type: "user", id: row.creator, label: emails.get(row.creator) ?? null },
    shortUrl: shortUrl(base, row.code),
    qrCodeUrl: qrCodeUrl(row.code),
    originalUrl: row.original_url,
    clicks: row.clicks,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastClickedAt: row.last_clicked_at,
    hasPassword: row.has_password,
    maxClicks: row.max_clicks,
    tags: row.tags,
    iosUrl: row.ios_url,
    androidUrl: row.android_url,
    disabled: row.disabled,
    disabledReason: row.disabled_reason,
    flagged: row.flagged,
  };
}

/**
 * listUrls pages through a workspace's links, newest first or as `sort` asks; any member may. Keyset paging
 * (on id, a sequence, so higher is newer; on clicks and id; on code) stays exact when links are added or
 * deleted between pages, unlike an offset.
 */
export const listUrls = api(
  { expose: true, auth: true, method: "GET", path: "/urls" },
  async ({ cursor, tag, q, sort, workspaceId }: ListUrlsRequest): Promise<ListUrlsResponse> => {
    const order = listOrder(sort);
    const after = cursor === undefined ? { id: null, clicks: null, code: null } : decodeAfter(order, cursor);
    const withTag = tag === undefined || tag === "" ? null : validateTag(tag, "tag");
    const search = q === undefined || q.trim() === "" ? null : likePattern(q.trim());
    const { workspaceId: id } = await workspaceAccess(currentActor(), workspaceId, "link.read");
    // One row more than a page tells whether another page follows.
    const rows = await db.queryAll<LinkRow>`
      SELECT id, code, workspace_id::text AS workspace_id, creator, original_url, clicks, created_at, expires_at, last_clicked_at,
             password_hash IS NOT NULL AS has_password, max_clicks, tags, ios_url, android_url,
             disabled_at IS NOT NULL AS disabled, disabled_reason, flagged
      FROM urls
      WHERE workspace_id = ${id}::text::bigint
        AND CASE ${order}::text
          WHEN 'clicks' THEN ${after.id}::int IS NULL OR (clicks, id) < (${after.clicks}::int, ${after.id}::int)
          WHEN 'code' THEN ${after.code}::text IS NULL OR code > ${after.code}::text
          ELSE ${after.id}::int IS NULL OR id < ${after.id}::int END
        AND (${withTag}::text IS NULL OR tags @> ARRAY[${withTag}::text])
        AND (${search}::text IS NULL OR code ILIKE ${search}::text OR original_url ILIKE ${search}::text)
      ORDER BY CASE WHEN ${order}::text = 'clicks' THEN clicks END DESC, CASE WHEN ${order}::text = 'code' THEN code END, id DESC
      LIMIT ${PAGE_SIZE + 1}
    `;
    const page = rows.slice(0, PAGE_SIZE);
    const base = publicBaseUrl();
    const emails = await userLabels(page.map((row) => row.creator));
    return {
      urls: page.map((row) => toLink(row, base, emails)),
      nextCursor: rows.length > PAGE_SIZE ? encodeAfter(order, page[page.length - 1]) : undefined,
    };
  },
);

/**
 * getUrl answers one link of the caller's workspaces, whatever its state (expired, disabled, at its
 * limit), so its owner can see and change it; any member may. Elsewhere it is not_found.
 */
export const getUrl = api({ expose: true, auth: true, method: "GET", path: "/urls/:code" }, async ({ code }: UrlRequest): Promise<Link> => {
  const { id } = await linkAccess(currentActor(), code, "link.read");
  const row = await db.queryRow<LinkRow>`
    SELECT id, code, workspace_id::text AS workspace_id, creator, original_url, clicks, created_at, expires_at, last_clicked_at,
           password_hash IS NOT NULL AS has_password, max_clicks, tags, ios_url, android_url,
           disabled_at IS NOT NULL AS disabled, disabled_reason, flagged
    FROM urls WHERE id = ${id}
  `;
  // Deleted between the access check and this read.
  if (row === null) throw APIError.notFound("URL not found");
  return toLink(row, publicBaseUrl(), await userLabels([row.creator]));
});

/** likePattern matches `text` anywhere, taking its own %, _ and backslashes literally (LIKE escapes with a backslash). */
function likePattern(text: string): string {
  if ([...text].length > MAX_SEARCH) throw APIError.invalidArgument(`q must be at most ${MAX_SEARCH} characters`);
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * deleteUrl removes a link and then its QR image: a member its own links, an admin or owner any of the
 * workspace's. A link outside the caller's workspaces is not_found, exactly like a missing one.
 */
export const deleteUrl = api(
  { expose: true, auth: true, method: "DELETE", path: "/urls/:code" },
  async ({ code }: UrlRequest): Promise<void> => {
    const actor = currentActor();
    await inTransaction(async (tx) => {
      const link = await linkAccess(actor, code, "link.change", tx, true);
      await tx.exec`DELETE FROM urls WHERE id = ${link.id}`;
      const details = { url: link.originalUrl };
      await recordAudit(tx, { workspaceId: link.workspaceId, actor, action: "link.deleted", target: { type: "link", id: code }, details });
    });
    try {
      await qrCodes.remove(qrObjectName(code));
    } catch (err) {
      // The link is gone, which is what the caller asked for; a leftover image only costs storage
      // and keeps its code from being reissued (uploads use notExists), so log it and succeed.
      if (!(err instanceof ObjectNotFound)) log.error(err, "could not remove QR code of deleted link", { code });
    }
  },
);
