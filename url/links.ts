// GET /urls and DELETE /urls/:code: the signed-in user's own links.
import { api, APIError, type Query } from "encore.dev/api";
import { ObjectNotFound } from "encore.dev/storage/objects";
import log from "encore.dev/log";
import { publicBaseUrl, shortUrl } from "./base-url";
import { qrCodes } from "./bucket";
import { callerID } from "./caller";
import { isLinkCode } from "./alias";
import { decodeCursor, encodeCursor } from "./cursor";
import { db } from "./db";
import type { Link } from "./link";
import { qrCodeUrl, qrObjectName } from "./qr";

/** PAGE_SIZE is how many links one GET /urls page holds. */
export const PAGE_SIZE = 20;

/** ListUrlsRequest picks the page. */
export interface ListUrlsRequest {
  /** nextCursor from the previous page; absent for the first page. */
  cursor?: Query<string>;
}

/** ListUrlsResponse is one page of links, newest first. */
export interface ListUrlsResponse {
  urls: Link[];
  /** Present when more links follow; pass it as `cursor`. */
  nextCursor?: string;
}

/** DeleteUrlRequest names the link to delete. */
export interface DeleteUrlRequest {
  code: string;
}

/** LinkRow is a urls row as the link endpoints select it. */
export interface LinkRow {
  id: number;
  code: string;
  original_url: string;
  clicks: number;
  created_at: Date;
  expires_at: Date | null;
  last_clicked_at: Date | null;
  has_password: boolean;
  max_clicks: number | null;
}

/** toLink describes a stored link to its owner. */
export function toLink(row: LinkRow, base: string): Link {
  return {
    code: row.code,
    shortUrl: shortUrl(base, row.code),
    qrCodeUrl: qrCodeUrl(row.code),
    originalUrl: row.original_url,
    clicks: row.clicks,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastClickedAt: row.last_clicked_at,
    hasPassword: row.has_password,
    maxClicks: row.max_clicks,
  };
}

/**
 * listUrls pages through the caller's links, newest first. Keyset paging on id (a sequence, so
 * higher is newer) stays exact when links are added or deleted between pages, unlike an offset.
 */
export const listUrls = api(
  { expose: true, auth: true, method: "GET", path: "/urls" },
  async ({ cursor }: ListUrlsRequest): Promise<ListUrlsResponse> => {
    const creator = callerID();
    const before = cursor === undefined ? null : decodeCursor(cursor);
    // One row more than a page tells whether another page follows.
    const rows = await db.queryAll<LinkRow>`
      SELECT id, code, original_url, clicks, created_at, expires_at, last_clicked_at,
             password_hash IS NOT NULL AS has_password, max_clicks
      FROM urls
      WHERE creator = ${creator} AND (${before}::int IS NULL OR id < ${before}::int)
      ORDER BY id DESC
      LIMIT ${PAGE_SIZE + 1}
    `;
    const page = rows.slice(0, PAGE_SIZE);
    const base = publicBaseUrl();
    return {
      urls: page.map((row) => toLink(row, base)),
      nextCursor: rows.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].id) : undefined,
    };
  },
);

/**
 * deleteUrl removes one of the caller's links and then its QR image. Someone else's link is
 * not_found, exactly like a missing one, so its existence does not leak.
 */
export const deleteUrl = api(
  { expose: true, auth: true, method: "DELETE", path: "/urls/:code" },
  async ({ code }: DeleteUrlRequest): Promise<void> => {
    const creator = callerID();
    const row = isLinkCode(code)
      ? await db.queryRow<{ code: string }>`
          DELETE FROM urls WHERE code = ${code} AND creator = ${creator} RETURNING code
        `
      : null;
    if (row === null) throw APIError.notFound("URL not found");
    try {
      await qrCodes.remove(qrObjectName(code));
    } catch (err) {
      // The link is gone, which is what the caller asked for; a leftover image only costs storage
      // and keeps its code from being reissued (uploads use notExists), so log it and succeed.
      if (!(err instanceof ObjectNotFound)) log.error(err, "could not remove QR code of deleted link", { code });
    }
  },
);
