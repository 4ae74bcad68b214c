// The link-events relay: publishes what url/migrations/014 queues in link_event_outbox (link changes,
// by trigger, and click batches, by the click statement) and removes each row once published. A row is
// published at least once: a crash after publishing and before the removal's commit publishes it again
// with the same event id, which receivers use to drop the copy.
import log from "encore.dev/log";
import { publicBaseUrl, shortUrl } from "./base-url";
import { db } from "./db";
import { linkEvents, type ClickGroup, type LinkEvent, type LinkEventType } from "./link-events-topic";

/** How often each instance looks for rows when the previous look found none. */
const RELAY_IDLE_MS = 500;
/** Rows taken per transaction. */
const RELAY_BATCH = 100;
/** Click groups per message: a batch of 1,000 groups would outgrow SQS's 256 KiB message limit. */
const GROUPS_PER_MESSAGE = 100;

interface OutboxRow {
  id: string;
  event_id: string;
  kind: LinkEventType;
  occurred_at: Date;
  data: unknown;
}

/** What the triggers store about a changed link (link_event_data in migration 014). */
interface StoredLink {
  code: string;
  url: string;
  owner: string | null;
  createdAt: string;
  expiresAt: string | null;
}

/** What the click statement stores per group (url/clicks.ts), before the short URL is added. */
type StoredClickGroup = Omit<ClickGroup, "shortUrl" | "owner"> & { owner: string | null };

/** messagesOf turns one outbox row into the messages that carry it. */
export function messagesOf(row: OutboxRow, base: string): LinkEvent[] {
  const head = { id: row.event_id, type: row.kind, occurredAt: row.occurred_at };
  if (row.kind !== "link.clicked") {
    const link = row.data as StoredLink;
    // Every link has a workspace since migration 011; an event queued before it has none, and no webhook.
    if (link.owner === null) return [];
    const snapshot = {
      code: link.code,
      shortUrl: shortUrl(base, link.code),
      url: link.url,
      createdAt: new Date(link.createdAt),
      expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt),
    };
    return [{ ...head, owner: link.owner, link: snapshot }];
  }
  const groups = (row.data as StoredClickGroup[])
    .filter((g): g is StoredClickGroup & { owner: string } => g.owner !== null)
    .map((g) => ({ ...g, shortUrl: shortUrl(base, g.code) }));
  const messages: LinkEvent[] = [];
  for (let i = 0; i < groups.length; i += GROUPS_PER_MESSAGE) messages.push({ ...head, clicks: groups.slice(i, i + GROUPS_PER_MESSAGE) });
  return messages;
}

/**
 * relayLinkEvents publishes every queued row, oldest first, and returns how many rows it published.
 * Rows are taken with SKIP LOCKED, so instances relaying at once share the rows instead of each
 * publishing all of them; a failed publish rolls the batch back and it is published again later.
 * Most looks find nothing: they cost one statement, not a transaction of four.
 */
export async function relayLinkEvents(): Promise<number> {
  let published = 0;
  for (;;) {
    const found = await db.queryRow<{ queued: boolean }>`SELECT EXISTS (SELECT FROM link_event_outbox) AS queued`;
    if (!found?.queued) return published;
    const tx = await db.begin();
    let rows: OutboxRow[];
    try {
      rows = await tx.queryAll<OutboxRow>`
        SELECT id::text, event_id::text, kind, occurred_at, data FROM link_event_outbox
        ORDER BY link_event_outbox.id LIMIT ${RELAY_BATCH} FOR UPDATE SKIP LOCKED`;
      // Read only once there are rows: encore.dev caches appMeta() on first use, and a test server sets its base after loading.
      const base = rows.length > 0 ? publicBaseUrl() : "";
      for (const row of rows) for (const message of messagesOf(row, base)) await linkEvents.publish(message);
      await tx.exec`DELETE FROM link_event_outbox WHERE id = ANY(${rows.map((r) => Number(r.id))}::bigint[])`;
      await tx.commit();
    } catch (err) {
      await tx.rollback().catch(() => {});
      throw err;
    }
    published += rows.length;
    if (rows.length < RELAY_BATCH) return published;
  }
}

/** Relays forever: straight on while rows keep coming, every RELAY_IDLE_MS otherwise; failures are logged and retried. */
async function relayLoop(): Promise<void> {
  for (;;) {
    try {
      await relayLinkEvents();
    } catch (err) {
      log.warn(err, "could not relay link events; retrying", { retryInMs: RELAY_IDLE_MS });
    }
    await new Promise((resolve) => setTimeout(resolve, RELAY_IDLE_MS).unref());
  }
}

// Every instance of the url service relays from the moment it loads, under `npm start` and Encore alike.
setTimeout(() => void relayLoop(), 0).unref();
