// Fan-out: each link event becomes one delivery message per event and matching webhook, so a failing
// receiver is retried on its own and never holds back another's events.
import { Subscription } from "encore.dev/pubsub";
import { linkEvents, type LinkEvent } from "../url/link-events-topic";
import { db } from "./db";
import { owedEvents } from "./payload";
import { webhookDeliveries } from "./topic";

/** Publishes at once, so a click batch of 1,000 events does not wait for 1,000 round trips in a row. */
const PUBLISH_CONCURRENCY = 50;

/**
 * fanOut publishes the event to every enabled webhook of its owners that subscribes to its type. A
 * failure is thrown, so the event is redelivered; what was published already goes again, under the
 * same event ids.
 */
export async function fanOut(event: LinkEvent): Promise<void> {
  const owed = owedEvents(event);
  const owners = [...new Set(owed.map((e) => e.owner))];
  if (owners.length === 0) return;
  const hooks = await db.queryAll<{ id: string; owner: string }>`
    SELECT id::text, owner FROM webhooks WHERE owner = ANY(${owners}::text[]) AND enabled AND ${event.type} = ANY(events)`;
  const messages = hooks.flatMap((hook) =>
    owed.filter((e) => e.owner === hook.owner).map((e) => ({ webhookId: hook.id, eventId: e.eventId, type: e.type, body: e.body })),
  );
  for (let i = 0; i < messages.length; i += PUBLISH_CONCURRENCY) {
    await Promise.all(messages.slice(i, i + PUBLISH_CONCURRENCY).map((m) => webhookDeliveries.publish(m)));
  }
}

/** Failures here are the database or the broker, both transient: retry soon and for long. */
export const webhookFanout = new Subscription(linkEvents, "webhook-fanout", {
  handler: fanOut,
  retryPolicy: { minBackoff: "1s", maxBackoff: "10m", maxRetries: 100 },
});
