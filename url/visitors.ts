// Unique visitors without storing who they are: a click of a person (not a bot) leaves a keyed hash of
// (day, link, address, User-Agent) in url_visitors, and the click statement counts the hashes it adds.
// The key is the day's own, random, in visitor_keys so every instance uses the same one, and deleted
// once its day is over: a hash can then be recomputed by no one, not even with the database in hand.
import { createHmac, randomBytes } from "node:crypto";
import log from "encore.dev/log";
import { db } from "./db";

/** The key of the day this instance writes clicks for (a batch uses one day's key for all its clicks). */
let current: { day: string; key: Promise<Buffer> } | null = null;

/**
 * visitorKey is the key of `day` (UTC, "YYYY-MM-DD"): made by the first instance that needs it and
 * read by the others, in one statement that also deletes the keys of earlier days. Fetched once a day
 * per instance; this instance then forgets the previous day's key.
 */
export function visitorKey(day: string): Promise<Buffer> {
  if (current?.day !== day) {
    const key = fetchKey(day);
    current = { day, key };
    // A failed fetch is tried again by the next batch, not remembered.
    key.catch(() => {
      if (current?.key === key) current = null;
    });
  }
  return current.key;
}

/** fetchKey reads (or makes) the key of `day`; exported for tests, which play several instances. */
export async function fetchKey(day: string): Promise<Buffer> {
  // ON CONFLICT DO UPDATE, not DO NOTHING: it returns the row another instance committed first.
  const row = await db.queryRow<{ key: string }>`
    WITH over AS (DELETE FROM visitor_keys WHERE day < ${day}::date)
    INSERT INTO visitor_keys (day, key) VALUES (${day}::date, decode(${randomBytes(32).toString("hex")}, 'hex'))
    ON CONFLICT (day) DO UPDATE SET key = visitor_keys.key
    RETURNING encode(key, 'hex') AS key
  `;
  return Buffer.from(row!.key, "hex");
}

/**
 * visitorHash is what url_visitors keeps of one visitor of one link on one day: 128 bits of an
 * HMAC-SHA256 under the day's key, as hex. The same visitor on another link or day gets an unrelated hash.
 */
export function visitorHash(key: Buffer, day: string, code: string, visitor: string): string {
  return createHmac("sha256", key).update(`${day}\n${code}\n${visitor}`).digest("hex").slice(0, 32);
}

/** DEFAULT_RETENTION_DAYS is how long visitor hashes are kept when VISITOR_HASH_RETENTION_DAYS is unset. */
export const DEFAULT_RETENTION_DAYS = 30;

/**
 * visitorHashRetentionDays is how many days after their day visitor hashes are kept
 * (VISITOR_HASH_RETENTION_DAYS, a whole number; 0 keeps only today's, which counting needs).
 */
export function visitorHashRetentionDays(): number {
  const raw = process.env.VISITOR_HASH_RETENTION_DAYS ?? String(DEFAULT_RETENTION_DAYS);
  if (/^\s*\d{1,5}\s*$/.test(raw)) return Number(raw);
  log.error(`invalid VISITOR_HASH_RETENTION_DAYS="${raw}": expected a whole number of days; keeping ${DEFAULT_RETENTION_DAYS}`);
  return DEFAULT_RETENTION_DAYS;
}

/** Rows per DELETE, so one statement never holds many locks for long. */
const DELETE_BATCH = 10_000;

/**
 * deleteOldVisitorHashes deletes the hashes of days before `keepFrom` (and any key of a day before
 * `today` that no click came to delete) and returns how many hashes it deleted. The counts they made
 * stay in url_click_facts.
 */
export async function deleteOldVisitorHashes(keepFrom: string, today: string): Promise<number> {
  await db.exec`DELETE FROM visitor_keys WHERE day < ${today}::date`;
  let deleted = 0;
  for (;;) {
    const row = await db.queryRow<{ n: number }>`
      WITH gone AS (
        DELETE FROM url_visitors WHERE ctid = ANY (ARRAY(
          SELECT ctid FROM url_visitors WHERE day < ${keepFrom}::date LIMIT ${DELETE_BATCH}))
        RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone
    `;
    deleted += row!.n;
    if (row!.n < DELETE_BATCH) return deleted;
  }
}
