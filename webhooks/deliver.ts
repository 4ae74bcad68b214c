// The delivery subscription: one message per event and webhook (webhooks/fanout.ts). Its retry policy
// spaces the attempts; the attempts are counted in the database, so the last one is known whatever the
// broker reports, and is recorded as failed instead of being dropped silently.
import { Subscription } from "encore.dev/pubsub";
import { db } from "./db";
import { attemptDelivery, delivered, recordAttempt } from "./send";
import { webhookDeliveries, type WebhookDelivery } from "./topic";

/** Attempts per event: the first and the subscription's maxRetries (24) retries. */
export const MAX_ATTEMPTS = 25;

/**
 * deliverEvent makes the next attempt at one event for one webhook. An event already delivered is not
 * sent again (a redelivered message), a deleted webhook's events are dropped, and a disabled webhook's
 * are recorded as failed without a request. A failed attempt throws, so the message comes back after the
 * subscription's backoff, except the last, which is recorded as failed.
 */
export async function deliverEvent(msg: WebhookDelivery): Promise<void> {
  const hook = await db.queryRow<{ url: string; secret: string; enabled: boolean }>`
    SELECT url, secret, enabled FROM webhooks WHERE id = ${msg.webhookId}::uuid`;
  if (hook === null) return;
  const prior = await db.queryRow<{ attempts: number; delivered: boolean }>`
    SELECT count(*)::int AS attempts, COALESCE(bool_or(outcome = 'delivered'), false) AS delivered
    FROM webhook_attempts WHERE webhook_id = ${msg.webhookId}::uuid AND event_id = ${msg.eventId}`;
  if (prior!.delivered) return;
  const attempt = prior!.attempts + 1;
  if (!hook.enabled) {
    await recordAttempt(
      msg.webhookId,
      msg.eventId,
      msg.type,
      attempt,
      { statusCode: null, error: "the webhook is disabled", durationMs: 0 },
      "failed",
    );
    return;
  }
  const result = await attemptDelivery(hook.url, hook.secret, msg.eventId, msg.body);
  const outcome = delivered(result) ? "delivered" : attempt >= MAX_ATTEMPTS ? "failed" : "retrying";
  await recordAttempt(msg.webhookId, msg.eventId, msg.type, attempt, result, outcome);
  if (outcome === "retrying") throw new Error(`webhook delivery attempt ${attempt} failed: ${result.error}; it will be retried`);
}

/**
 * Backoff from 30 s up to 1 h: exponential where the broker grows it (AWS SNS/SQS and GCP Pub/Sub
 * under Encore Cloud), linear under `encore run` and `npm start` (NSQ requeues after minBackoff times
 * the attempt: runtimes/core/src/pubsub/nsq/sub.rs). 24 retries span about 2.5 hours under NSQ and
 * about a day in the cloud. The receiver's 10 s fit the default 30 s ack deadline.
 */
export const deliverWebhook = new Subscription(webhookDeliveries, "deliver-webhook", {
  handler: deliverEvent,
  retryPolicy: { minBackoff: "30s", maxBackoff: "1h", maxRetries: 24 },
});
