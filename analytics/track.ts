import { Subscription } from "encore.dev/pubsub";
import { GroupCommit } from "../lib/group-commit";
import { urlShortened, type URLShortenedEvent } from "../url/topic";
import { db } from "./db";
import { utcDay } from "../lib/utc-day";

/** A link as counted_urls keys it (code and creation time), and the UTC day it counts on. */
export interface CreatedLink {
  code: string;
  createdAt: string;
  day: string;
}

/** MAX_LINKS_PER_BATCH bounds one statement. */
const MAX_LINKS_PER_BATCH = 500;

const keyOf = (link: CreatedLink) => `${link.code}\0${link.createdAt}`;

/**
 * countLinks counts a batch of links in one statement (one implicit transaction): the links not yet
 * in counted_urls are recorded there and added to their day in daily_stats, so the record and the
 * increment commit together, and a link already recorded counts nothing. A batch writes its keys,
 * then its days, each in one fixed order, so two batches (two instances, or a redelivery) wait for
 * each other instead of deadlocking; a copy of a link that another batch is writing waits on the
 * primary key until that batch commits, then counts nothing. Exported so a test can run several
 * instances' batches against each other.
 */
export async function countLinks(links: CreatedLink[]): Promise<void> {
  const unique = [...new Map(links.map((l) => [keyOf(l), l])).values()].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
  await db.exec`
    WITH counted AS (
      INSERT INTO counted_urls (code, created_at, day)
      SELECT code, created_at::timestamptz, day::date
      FROM unnest(${unique.map((l) => l.code)}::text[], ${unique.map((l) => l.createdAt)}::text[],
                  ${unique.map((l) => l.day)}::text[]) WITH ORDINALITY AS e (code, created_at, day, position)
      ORDER BY position
      ON CONFLICT (code, created_at) DO NOTHING
      RETURNING day
    )
    INSERT INTO daily_stats (date, urls_created)
    SELECT day, count(*) FROM counted GROUP BY day ORDER BY day
    ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + EXCLUDED.urls_created`;
}

/**
 * Concurrent deliveries share one statement, as clicks do: one row update of today's count per
 * batch instead of a queue of transactions waiting on that one row's lock.
 */
const linkCounts = GroupCommit.ofWrites(countLinks, MAX_LINKS_PER_BATCH, "analytics");

/**
 * Counts a shortened link once on its event's UTC day, however often the event is delivered. It
 * settles once the statement holding it has committed; errors propagate so the runtime redelivers.
 */
export async function trackShortened(event: URLShortenedEvent): Promise<void> {
  const day = utcDay(event.timestamp);
  await linkCounts.submit({ code: event.code, createdAt: event.timestamp.toISOString(), day });
}

/**
 * Retries start after 1s rather than the default 10s: failures here are transient database
 * errors and the handler is idempotent and cheap, so an early retry only keeps today's count
 * current. Where the backoff grows exponentially up to 10m (GCP Pub/Sub, which caps deliveries at
 * 100) the 100 retries span about 15 hours, outlasting a database outage of a night; under
 * `encore run` NSQ backs off linearly, 1s × attempt (runtimes/core/src/pubsub/nsq/sub.rs sets
 * tokio-nsq's base and max requeue delay), so there they span about 84 minutes. The message is
 * then dead-lettered (dropped locally).
 */
export const trackAnalytics = new Subscription(urlShortened, "track-analytics", {
  handler: trackShortened,
  retryPolicy: { minBackoff: "1s", maxBackoff: "10m", maxRetries: 100 },
});
