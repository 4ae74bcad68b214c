import { Subscription } from "encore.dev/pubsub";
import { urlShortened, type URLShortenedEvent } from "../url/topic";
import { db } from "./db";
import { utcDay } from "./day";

/**
 * Counts a shortened link once on its event's UTC day, however often the event is delivered.
 * The link (code + creation time) is recorded in counted_urls in the same transaction as the
 * increment: a redelivery finds it and counts nothing, and a concurrent copy blocks on the primary
 * key until the first commits, then does nothing. Errors propagate so the runtime redelivers.
 */
export async function trackShortened(event: URLShortenedEvent): Promise<void> {
  const day = utcDay(event.timestamp);
  await using tx = await db.begin();
  const firstDelivery = await tx.queryRow<{ code: string }>`
    INSERT INTO counted_urls (code, created_at, day)
    VALUES (${event.code}, ${event.timestamp}, ${day}::date)
    ON CONFLICT (code, created_at) DO NOTHING
    RETURNING code`;
  if (firstDelivery) {
    await tx.exec`
      INSERT INTO daily_stats (date, urls_created) VALUES (${day}::date, 1)
      ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + 1`;
  }
  await tx.commit();
}

/**
 * Retries start after 1s rather than the default 10s: failures here are transient database
 * errors and the handler is idempotent and cheap, so an early retry only keeps today's count
 * current. Backoff doubles up to 10m and gives up after 100 retries (about 15 hours), which
 * outlasts a database outage of a night; the message is then dead-lettered (dropped locally).
 */
export const trackAnalytics = new Subscription(urlShortened, "track-analytics", {
  handler: trackShortened,
  retryPolicy: { minBackoff: "1s", maxBackoff: "10m", maxRetries: 100 },
});
