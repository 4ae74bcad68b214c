import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { ObjectNotFound } from "encore.dev/storage/objects";
import { db } from "./db";
import { qrCodes } from "./bucket";
import { qrObjectName } from "./qr";
import { addDays, utcDay } from "../lib/utc-day";
import { EXPIRED_KEPT_MS, STALE_AFTER_MS } from "./retention";
import { deleteOldVisitorHashes, visitorHashRetentionDays } from "./visitors";

/** Cutoffs says which links are stale: both bounds are strict. */
export interface Cutoffs {
  /** Links with zero clicks created before this. */
  unclickedCreatedBefore: Date;
  /** Links that expired before this, clicked or not. */
  expiredBefore: Date;
}

/** Rows per DELETE: each statement locks at most this many stale rows, briefly. */
export const BATCH_SIZE = 500;

/** QR removals in flight at once, so a batch neither crawls nor floods object storage. */
const REMOVE_CONCURRENCY = 16;

export interface CleanupResult {
  /** Links deleted by this run. */
  deleted: number;
}

/**
 * Deletes stale links (never clicked and old, or long expired), BATCH_SIZE rows per statement, with
 * their QR images and (by cascade) their click history. Walks the primary key upwards (keyset), so
 * each row is visited once per run without an extra index: a partial index WHERE clicks = 0 would make
 * every click's UPDATE non-HOT. Rows locked by a concurrent click are skipped until the next run. Returns the count.
 */
export async function deleteStaleUrls({ unclickedCreatedBefore, expiredBefore }: Cutoffs): Promise<number> {
  let deleted = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db.queryAll<{ id: number; code: string }>`
      DELETE FROM urls WHERE id IN (
        SELECT id FROM urls
        WHERE id > ${afterId}
          AND ((clicks = 0 AND created_at < ${unclickedCreatedBefore}) OR expires_at < ${expiredBefore})
        ORDER BY id
        LIMIT ${BATCH_SIZE}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, code`;
    deleted += rows.length;
    await removeQrImages(rows.map((r) => r.code));
    if (rows.length < BATCH_SIZE) return deleted;
    afterId = Math.max(...rows.map((r) => r.id));
  }
}

/**
 * Removes the QR images of deleted links; a missing image is fine. Rows go first so a live link
 * never loses its image; if storage fails, the orphaned object names are logged and the run
 * fails, so the failure is visible rather than silent.
 */
async function removeQrImages(codes: string[]): Promise<void> {
  const orphaned: string[] = [];
  for (let i = 0; i < codes.length; i += REMOVE_CONCURRENCY) {
    const names = codes.slice(i, i + REMOVE_CONCURRENCY).map(qrObjectName);
    const results = await Promise.allSettled(names.map((name) => qrCodes.remove(name)));
    results.forEach((result, j) => {
      if (result.status === "rejected" && !(result.reason instanceof ObjectNotFound)) {
        log.error(result.reason, "could not remove QR image of a deleted link", { object: names[j] });
        orphaned.push(names[j]);
      }
    });
  }
  if (orphaned.length > 0) {
    throw new Error(`links deleted but ${orphaned.length} QR image(s) left in qr-codes: ${orphaned.join(", ")}`);
  }
}

/**
 * Deletes links nobody clicked within 90 days of creation and links expired more than 30 days ago, and
 * visitor hashes older than VISITOR_HASH_RETENTION_DAYS (the counts they made stay); idempotent, safe
 * to run any time.
 */
export const cleanupStaleUrls = api({ expose: false }, async (): Promise<CleanupResult> => {
  const now = Date.now();
  const cutoffs = { unclickedCreatedBefore: new Date(now - STALE_AFTER_MS), expiredBefore: new Date(now - EXPIRED_KEPT_MS) };
  const deleted = await deleteStaleUrls(cutoffs);
  const today = utcDay(new Date(now));
  const hashesKeptFrom = addDays(today, -visitorHashRetentionDays());
  const visitorHashesDeleted = await deleteOldVisitorHashes(hashesKeptFrom, today);
  log.info("removed stale urls", {
    deleted,
    unclickedCreatedBefore: cutoffs.unclickedCreatedBefore.toISOString(),
    expiredBefore: cutoffs.expiredBefore.toISOString(),
    visitorHashesDeleted,
    hashesKeptFrom,
  });
  return { deleted };
});

/** Runs the cleanup daily at 03:00 UTC, a quiet hour for most users. */
export const cleanupStaleUrlsJob = new CronJob("cleanup-stale-urls", {
  title: "Remove URLs with no clicks in 90 days",
  schedule: "0 3 * * *",
  endpoint: cleanupStaleUrls,
});
