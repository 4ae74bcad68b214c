// POST, GET, PATCH and DELETE /webhooks: a workspace's endpoints for link events (its admins and owners manage them).
import { randomBytes } from "node:crypto";
import { api, APIError, type Query } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { literalAddressRefused, refuseOutboundUrl } from "../lib/guarded-post";
import { url as urlService } from "~encore/clients";
import { db } from "./db";
import { authorizeOwner, callerWorkspace } from "./owner";
import { EVENT_TYPES } from "./payload";
import { deliveryPolicy } from "./settings";
import type { CreatedWebhook, Webhook, WebhookEvent } from "./webhook-types";

/** Webhooks one workspace may have. */
export const MAX_WEBHOOKS_PER_OWNER = 20;

/** CreateWebhookRequest names the endpoint and the events it wants. */
export interface CreateWebhookRequest {
  /** An absolute http(s) URL of at most 2048 bytes. */
  url: string & MaxLen<2048>;
  events: WebhookEvent[] & MinLen<1> & MaxLen<4>;
  /** The workspace; the caller's personal one when absent. */
  workspaceId?: string;
}

/** ListWebhooksRequest picks the workspace. */
export interface ListWebhooksRequest {
  /** The workspace; the caller's personal one when absent. */
  workspaceId?: Query<string>;
}

/** UpdateWebhookRequest changes what is given. */
export interface UpdateWebhookRequest {
  id: string;
  url?: string & MaxLen<2048>;
  events?: WebhookEvent[] & MinLen<1> & MaxLen<4>;
  /** true turns a disabled webhook back on (and forgets its failing streak). */
  enabled?: boolean;
}

/** WebhookID names one webhook. */
export interface WebhookID {
  id: string;
}

/** ListWebhooksResponse is all the caller's webhooks, oldest first. */
export interface ListWebhooksResponse {
  webhooks: Webhook[];
}

/** WebhookRow is a webhooks row as these endpoints select it. */
interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    workspaceId: row.owner,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since,
    createdAt: row.created_at,
  };
}

/** The URL as stored, or invalid_argument saying why it can never be delivered to. */
function checkedUrl(raw: string): string {
  const url = raw.trim();
  const refused = refuseOutboundUrl(url);
  if (refused !== null) throw APIError.invalidArgument(`url: ${refused}`);
  // Names are resolved and checked at every delivery; an address written out is refused now already.
  if (literalAddressRefused(url, deliveryPolicy()))
    throw APIError.invalidArgument("url: private, loopback and reserved addresses are not allowed");
  return new URL(url).href;
}

/** The events without repeats, in the documented order. */
function checkedEvents(events: WebhookEvent[]): WebhookEvent[] {
  return EVENT_TYPES.filter((e) => events.includes(e));
}

/** A Standard Webhooks secret: 32 random bytes. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** A webhook id is a UUID; anything else names no webhook (and must not reach a uuid cast). */
export function isWebhookId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
}

/**
 * webhookOwner is the workspace of webhook `id` once the caller may manage webhooks there; a missing
 * webhook and another workspace's answer the same not_found.
 */
export async function webhookOwner(id: string): Promise<string> {
  const row = isWebhookId(id) ? await db.queryRow<{ owner: string }>`SELECT owner FROM webhooks WHERE id = ${id}::uuid` : null;
  if (row === null) throw APIError.notFound("webhook not found");
  await authorizeOwner(row.owner);
  return row.owner;
}

/** createWebhook registers an endpoint; its first deliveries are the events committed after this. */
export const createWebhook = api(
  { expose: true, auth: true, method: "POST", path: "/webhooks" },
  async ({ url, events, workspaceId }: CreateWebhookRequest): Promise<CreatedWebhook> => {
    const target = checkedUrl(url);
    const wanted = checkedEvents(events);
    const owner = await callerWorkspace(workspaceId);
    // Before the webhook exists, so every event committed once it is acknowledged is queued for it.
    await urlService.subscribeLinkEvents({ workspaceId: owner });
    const secret = newSecret();
    // The count and the insert are one statement, but two at once could both pass: the limit is a guard, not an invariant.
    const row = await db.queryRow<WebhookRow>`
      INSERT INTO webhooks (owner, url, events, secret)
      SELECT ${owner}, ${target}, ${wanted}::text[], ${secret}
      WHERE (SELECT count(*) FROM webhooks WHERE owner = ${owner}) < ${MAX_WEBHOOKS_PER_OWNER}
      RETURNING id::text, owner, url, events, enabled, disabled_reason, failing_since, created_at`;
    if (row === null) throw APIError.resourceExhausted(`at most ${MAX_WEBHOOKS_PER_OWNER} webhooks per workspace`);
    return { ...toWebhook(row), secret };
  },
);

/** listWebhooks lists a workspace's webhooks, without their secrets. */
export const listWebhooks = api(
  { expose: true, auth: true, method: "GET", path: "/webhooks" },
  async ({ workspaceId }: ListWebhooksRequest): Promise<ListWebhooksResponse> => {
    const owner = await callerWorkspace(workspaceId);
    const rows = await db.queryAll<WebhookRow>`
      SELECT id::text, owner, url, events, enabled, disabled_reason, failing_since, created_at
      FROM webhooks WHERE owner = ${owner} ORDER BY created_at, id`;
    return { webhooks: rows.map(toWebhook) };
  },
);

/** updateWebhook changes the URL, the events or whether it is enabled; another workspace's webhook is not_found. */
export const updateWebhook = api(
  { expose: true, auth: true, method: "PATCH", path: "/webhooks/:id" },
  async ({ id, url, events, enabled }: UpdateWebhookRequest): Promise<Webhook> => {
    if (url === undefined && events === undefined && enabled === undefined) {
      throw APIError.invalidArgument("nothing to change: give url, events or enabled");
    }
    const target = url === undefined ? null : checkedUrl(url);
    const wanted = events === undefined ? null : checkedEvents(events);
    const owner = await webhookOwner(id);
    const row = isWebhookId(id)
      ? await db.queryRow<WebhookRow>`
          UPDATE webhooks SET
            url = COALESCE(${target}, url),
            events = COALESCE(${wanted}::text[], events),
            enabled = COALESCE(${enabled ?? null}::boolean, enabled),
            disabled_reason = CASE WHEN ${enabled ?? null}::boolean IS NULL THEN disabled_reason ELSE NULL END,
            failing_since = CASE WHEN ${enabled === true} THEN NULL ELSE failing_since END
          WHERE id = ${id}::uuid AND owner = ${owner}
          RETURNING id::text, owner, url, events, enabled, disabled_reason, failing_since, created_at`
      : null;
    if (row === null) throw APIError.notFound("webhook not found");
    return toWebhook(row);
  },
);

/** deleteWebhook removes the webhook and its attempts; events still queued for it are dropped. */
export const deleteWebhook = api(
  { expose: true, auth: true, method: "DELETE", path: "/webhooks/:id" },
  async ({ id }: WebhookID): Promise<void> => {
    const owner = await webhookOwner(id);
    const row = await db.queryRow`DELETE FROM webhooks WHERE id = ${id}::uuid AND owner = ${owner} RETURNING id`;
    if (row === null) throw APIError.notFound("webhook not found");
  },
);
