// The url-shortened outbox (migration 004): the event is written in the statement that stores the
// link (url/shorten.ts) and published after the commit, so a committed link never misses its event,
// whatever fails or dies in between. A relay republishes what is left; the subscriber counts each
// link once, so an event published twice (a crash after publishing but before removing the row)
// costs nothing.
import log from "encore.dev/log";
import { GroupCommit } from "../lib/group-commit";
import { db } from "./db";
import { urlShortened, type URLShortenedEvent } from "./topic";

/** Rows younger than this are left to the request that wrote them, which publishes right after its commit. */
const RELAY_GRACE_SECONDS = 5;
/** How often each instance looks for leftovers; also the first look's delay after start-up is zero. */
const RELAY_PERIOD_MS = 5_000;
/** Rows read per query, so a long backlog never loads at once. */
const RELAY_BATCH = 100;

/** QueuedEvent is an outbox row: the event and the id that removes it once published. */
export interface QueuedEvent {
  id: number;
  event: URLShortenedEvent;
}

/** removeRows deletes published events' rows, all in one statement. */
async function removeRows(ids: number[]): Promise<void> {
  await db.exec`DELETE FROM url_shortened_outbox WHERE id = ANY(${ids}::bigint[])`;
}

/** MAX_REMOVALS_PER_BATCH bounds one DELETE. */
const MAX_REMOVALS_PER_BATCH = 1000;

/** Rows of events published at once are removed together: one statement, not one commit per new link. */
const removals = GroupCommit.ofWrites(removeRows, MAX_REMOVALS_PER_BATCH, "outbox");

/**
 * publishQueued publishes an outbox event and removes its row; returns whether it was published.
 * A failure is logged, not thrown: the link is committed and its row waits for the relay.
 */
export async function publishQueued({ id, event }: QueuedEvent): Promise<boolean> {
  try {
    await urlShortened.publish(event);
  } catch (err) {
    log.warn(err, "could not publish url-shortened; the outbox relay will publish it later", { code: event.code });
    return false;
  }
  try {
    await removals.submit(id);
  } catch (err) {
    log.warn(err, "published url-shortened but could not remove its outbox row; it will be published again", { code: event.code });
  }
  return true;
}

interface OutboxRow {
  id: number;
  code: string;
  original_url: string;
  created_at: Date;
}

/** relayOutbox publishes every row older than `graceSeconds` and returns how many it published. */
export async function relayOutbox(graceSeconds = RELAY_GRACE_SECONDS): Promise<number> {
  let published = 0;
  let after = 0;
  for (;;) {
    const rows: OutboxRow[] = [];
    // Read the batch before publishing, so no connection is held while the broker answers.
    for await (const row of db.query<OutboxRow>`
      SELECT id, code, original_url, created_at FROM url_shortened_outbox
      WHERE id > ${after} AND enqueued_at <= NOW() - make_interval(secs => ${graceSeconds})
      ORDER BY id LIMIT ${RELAY_BATCH}`) {
      rows.push(row);
    }
    for (const row of rows) {
      const event = { code: row.code, originalUrl: row.original_url, timestamp: row.created_at };
      if (await publishQueued({ id: row.id, event })) published++;
    }
    if (rows.length < RELAY_BATCH) return published;
    after = rows[rows.length - 1].id;
  }
}

let relaying: Promise<void> | null = null;

/** One relay pass at a time; a failed pass (the database is down) is logged and the next one retries. */
function relayInBackground(): void {
  relaying ??= relayOutbox()
    .then((n) => {
      if (n > 0) log.info("outbox relay published leftover url-shortened events", { published: n });
    })
    .catch((err) => log.error(err, "outbox relay failed; it will try again", { retryInMs: RELAY_PERIOD_MS }))
    .finally(() => (relaying = null));
}

// The relay runs in every instance of the service from the moment the service loads, under
// `npm start` and under Encore alike (a CronJob's period is at least a minute, and it needs a
// deployed app). Unreferenced timers, so they never keep a finished process (or test) alive.
setTimeout(relayInBackground, 0).unref();
setInterval(relayInBackground, RELAY_PERIOD_MS).unref();
