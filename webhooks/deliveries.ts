// GET /webhooks/:id/deliveries and POST /webhooks/:id/test: what was sent to a webhook, and a sample to try it.
import { randomUUID } from "node:crypto";
import { api, APIError, type Query } from "encore.dev/api";
import { decodeCursor, encodeCursor } from "../url/cursor";
import { db } from "./db";
import { webhookOwner } from "./manage";
import { attemptDelivery, delivered, recordAttempt } from "./send";
import type { ListDeliveriesResponse, Outcome, TestDeliveryResponse } from "./webhook-types";

/** Attempts per page. */
export const DELIVERIES_PAGE_SIZE = 50;

/** ListDeliveriesRequest picks a webhook and a page. */
export interface ListDeliveriesRequest {
  id: string;
  /** nextCursor from the previous page; absent for the first page. */
  cursor?: Query<string>;
}

interface AttemptRow {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  outcome: Outcome;
}

/** The URL and secret of a webhook the caller manages, or not_found for a missing one and another workspace's alike. */
async function ownWebhook(id: string): Promise<{ url: string; secret: string }> {
  const owner = await webhookOwner(id);
  const row = await db.queryRow<{
    url: string;
    secret: string;
  }>`SELECT url, secret FROM webhooks WHERE id = ${id}::uuid AND owner = ${owner}`;
  if (row === null) throw APIError.notFound("webhook not found");
  return row;
}

/** listDeliveries pages through a webhook's attempts, newest first (keyset paging on the attempt's id). */
export const listDeliveries = api(
  { expose: true, auth: true, method: "GET", path: "/webhooks/:id/deliveries" },
  async ({ id, cursor }: ListDeliveriesRequest): Promise<ListDeliveriesResponse> => {
    await ownWebhook(id);
    const before = cursor === undefined ? null : decodeCursor(cursor, Number.MAX_SAFE_INTEGER);
    const rows = await db.queryAll<AttemptRow>`
      SELECT id::text, event_id, event_type, attempt, attempted_at, status_code, error, duration_ms, outcome
      FROM webhook_attempts
      WHERE webhook_id = ${id}::uuid AND (${before}::bigint IS NULL OR id < ${before}::bigint)
      ORDER BY webhook_attempts.id DESC LIMIT ${DELIVERIES_PAGE_SIZE + 1}`;
    const page = rows.slice(0, DELIVERIES_PAGE_SIZE);
    return {
      deliveries: page.map((r) => ({
        eventId: r.event_id,
        eventType: r.event_type,
        attempt: r.attempt,
        attemptedAt: r.attempted_at,
        statusCode: r.status_code,
        error: r.error,
        durationMs: r.duration_ms,
        outcome: r.outcome,
      })),
      nextCursor: rows.length > DELIVERIES_PAGE_SIZE ? encodeCursor(Number(page[page.length - 1].id)) : undefined,
    };
  },
);

/**
 * testWebhook sends one "webhook.test" event now, signed like every other, and answers with what the
 * receiver did; the attempt is in the deliveries list too. It is sent once: a test is not retried.
 */
export const testWebhook = api(
  { expose: true, auth: true, method: "POST", path: "/webhooks/:id/test" },
  async ({ id }: { id: string }): Promise<TestDeliveryResponse> => {
    const hook = await ownWebhook(id);
    const eventId = `evt_test_${randomUUID().replaceAll("-", "")}`;
    const body = JSON.stringify({ type: "webhook.test", timestamp: new Date(), data: { webhookId: id } });
    const result = await attemptDelivery(hook.url, hook.secret, eventId, body);
    await recordAttempt(id, eventId, "webhook.test", 1, result, delivered(result) ? "delivered" : "failed");
    return { eventId, delivered: delivered(result), ...result };
  },
);
