// Storing a checked link: its QR image, then its row and its url-shortened event in one statement, under a
// generated code or the caller's alias.
import { APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { PreconditionFailed } from "encore.dev/storage/objects";
import { shortUrl } from "./base-url";
import { qrCodes } from "./bucket";
import { allocateCode } from "./code";
import { db } from "./db";
import type { NewLink } from "./new-link";
import type { QueuedEvent } from "./outbox";
import { qrObjectName, qrTarget, renderQrPng } from "./qr";

/** Claimed is a stored link's queued url-shortened event and its expiry. */
export interface Claimed {
  queued: QueuedEvent;
  expiresAt: Date | null;
}

/** createdDetails is what a link.created entry says about the new link: its settings, never its password. */
function createdDetails(link: NewLink): Record<string, unknown> {
  return {
    url: link.originalUrl,
    expiresAt: link.expiresAt,
    hasPassword: link.passwordHash !== null,
    maxClicks: link.maxClicks,
    tags: link.tags,
    iosUrl: link.iosUrl,
    androidUrl: link.androidUrl,
  };
}

/** StoredLink is the row just inserted and the id of its outbox event. */
interface StoredLink {
  code: string;
  created_at: Date;
  expires_at: Date | null;
  outbox_id: number;
}

/**
 * createLink stores `link` under `alias`, or under a generated code when there is none; a taken alias
 * is already_exists. The event is queued, not yet published: the caller publishes it.
 */
export function createLink(link: NewLink, alias: string | undefined, base: string): Promise<Claimed> {
  const claim = (code: string) => store(code, link, base);
  return alias === undefined ? allocateCode(claim) : claimAlias(alias, claim);
}

/** claimAlias stores the link under the alias the user chose, which only one link can hold. */
async function claimAlias(alias: string, claim: (code: string) => Promise<Claimed | null>): Promise<Claimed> {
  const link = await claim(alias);
  if (link === null) throw APIError.alreadyExists("alias is already taken");
  return link;
}

/**
 * store claims `code` for the link: its QR image first, then its row and its outbox event in one
 * statement (one implicit transaction, one round trip); null means the code is taken.
 *
 * Image first, so a stored link always has its image and a failed upload leaves no row.
 * `notExists` keeps the upload from replacing another link's image: an existing `<code>.png` means the
 * code is (or was) someone else's, so it counts as a clash. If the upload succeeds and the row then
 * clashes, the row that owns the code had no image; the one just written encodes that row's own short
 * URL (the image depends only on the code and the base URL), so leaving it is right, and removing it
 * could race with that owner.
 */
async function store(code: string, link: NewLink, base: string): Promise<Claimed | null> {
  const object = qrObjectName(code);
  const png = renderQrPng(qrTarget(shortUrl(base, code)));
  try {
    await qrCodes.upload(object, png, { contentType: "image/png", preconditions: { notExists: true } });
  } catch (err) {
    if (err instanceof PreconditionFailed) return null;
    log.error(err, "could not upload QR code", { code });
    throw APIError.unavailable("could not store the QR code, please try again");
  }
  try {
    // The event row (url/outbox.ts) is written with the link or not at all: a taken code writes neither.
    const { originalUrl } = link;
    const { actor } = link;
    // The audit entry (url/audit-log.ts) rides in the same statement, so it exists exactly when the link does.
    const stored = await db.queryRow<StoredLink>`
      WITH link AS (
        INSERT INTO urls (code, original_url, creator, workspace_id, expires_at, password_hash, max_clicks, tags, ios_url, android_url)
        VALUES (${code}, ${originalUrl}, ${actor.userId}, ${link.workspaceId}::text::bigint, ${link.expiresAt}, ${link.passwordHash}, ${link.maxClicks},
                ${link.tags}::text[], ${link.iosUrl}, ${link.androidUrl})
        ON CONFLICT (code) DO NOTHING
        RETURNING code, original_url, created_at, expires_at
      ), queued AS (
        INSERT INTO url_shortened_outbox (code, original_url, created_at)
        SELECT code, original_url, created_at FROM link
        RETURNING id
      ), audited AS (
        INSERT INTO audit_log (workspace_id, actor_type, actor_id, actor_label, action, target_type, target_id, details)
        SELECT ${link.workspaceId}::text::bigint, ${actor.type}, ${actor.id}, ${actor.label}, 'link.created', 'link', code,
               ${JSON.stringify(createdDetails(link))}::text::jsonb
        FROM link
      )
      SELECT link.code, link.created_at, link.expires_at, queued.id AS outbox_id FROM link CROSS JOIN queued
    `;
    if (stored === null) return null;
    const queued = { id: stored.outbox_id, event: { code: stored.code, originalUrl, timestamp: stored.created_at } };
    return { queued, expiresAt: stored.expires_at };
  } catch (err) {
    // No row holds the code, so the image just uploaded belongs to nobody.
    await qrCodes.remove(object).catch((removeErr) => log.error(removeErr, "could not remove orphaned QR code", { code }));
    throw err;
  }
}
