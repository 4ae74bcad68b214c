// One attempt at one event: sign it as Standard Webhooks says, POST it through the SSRF guard, and record
// the attempt with what it did to the webhook (a success clears its failing streak; three days of
// failures disable it) in one statement.
import { Webhook } from "standardwebhooks";
import { postGuarded } from "../lib/guarded-post";
import { db } from "./db";
import { deliveryPolicy } from "./settings";
import type { Outcome } from "./webhook-types";

/** A receiver must answer within this; slower counts as a failure and is retried. */
export const RECEIVER_TIMEOUT_MS = 10_000;

/** A webhook failing without a single success for this long is disabled. */
export const DISABLE_AFTER_FAILING_DAYS = 3;

/** AttemptResult is what one attempt did. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The request body and headers of one attempt, signed now (the timestamp is the attempt's, as the spec asks). */
export function signedRequest(secret: string, eventId: string, body: string, now = new Date()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "url-shortener-webhooks/1",
    "webhook-id": eventId,
    "webhook-timestamp": Math.floor(now.getTime() / 1000).toString(),
    "webhook-signature": new Webhook(secret).sign(eventId, now, body),
  };
}

/** attemptDelivery sends one signed attempt; a 2xx is a delivery, anything else a failure with its reason. */
export async function attemptDelivery(url: string, secret: string, eventId: string, body: string): Promise<AttemptResult> {
  const result = await postGuarded(url, body, signedRequest(secret, eventId, body), deliveryPolicy(), RECEIVER_TIMEOUT_MS);
  if ("error" in result) return { statusCode: null, error: result.error, durationMs: result.durationMs };
  const ok = result.status >= 200 && result.status < 300;
  return { statusCode: result.status, error: ok ? null : `the receiver answered ${result.status}`, durationMs: result.durationMs };
}

/** delivered tells a success from a failure. */
export function delivered(result: AttemptResult): boolean {
  return result.error === null;
}

/**
 * recordAttempt stores the attempt and updates the webhook's failing streak in one statement: a
 * delivery ends the streak; a failure starts it, or disables the webhook once it has lasted
 * DISABLE_AFTER_FAILING_DAYS, saying why.
 */
export async function recordAttempt(
  webhookId: string,
  eventId: string,
  eventType: string,
  attempt: number,
  result: AttemptResult,
  outcome: Outcome,
): Promise<void> {
  const ok = outcome === "delivered";
  await db.exec`
    WITH recorded AS (
      INSERT INTO webhook_attempts (webhook_id, event_id, event_type, attempt, status_code, error, duration_ms, outcome)
      VALUES (${webhookId}::uuid, ${eventId}, ${eventType}, ${attempt}, ${result.statusCode}, ${result.error}, ${result.durationMs}, ${outcome})
    )
    UPDATE webhooks SET
      failing_since = CASE WHEN ${ok} THEN NULL ELSE COALESCE(failing_since, now()) END,
      enabled = enabled AND (${ok} OR failing_since IS NULL OR failing_since > now() - make_interval(days => ${DISABLE_AFTER_FAILING_DAYS})),
      disabled_reason = CASE
        WHEN enabled AND NOT ${ok} AND failing_since <= now() - make_interval(days => ${DISABLE_AFTER_FAILING_DAYS})
        THEN format('disabled after failing for %s days: no delivery succeeded since %s; the last attempt: %s',
                    ${DISABLE_AFTER_FAILING_DAYS}::int, to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI "UTC"'), ${result.error}::text)
        ELSE disabled_reason END
    WHERE id = ${webhookId}::uuid`;
}
