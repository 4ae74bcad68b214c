// The webhooks API's shapes. It imports nothing, so that the web pages read them from here
// (web/ui/webhooks-page.tsx) rather than keep copies that drift.

/** WebhookEvent names an event a webhook receives. */
export type WebhookEvent = "link.created" | "link.updated" | "link.deleted" | "link.clicked";

/** Webhook is one endpoint as its workspace's admins see it; the secret is shown only when it is created. */
export interface Webhook {
  id: string;
  /** The workspace whose link events it receives. */
  workspaceId: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  /** Why the app disabled it (it kept failing); null otherwise. */
  disabledReason: string | null;
  /** Since when every attempt has failed; null while deliveries succeed. */
  failingSince: Date | null;
  createdAt: Date;
}

/** CreatedWebhook is the new webhook with its signing secret, shown this once. */
export interface CreatedWebhook extends Webhook {
  /** Standard Webhooks secret ("whsec_" and base64): verify every delivery with it. */
  secret: string;
}

/** Outcome of an attempt: delivered, retrying (another attempt follows) or failed (the last attempt failed). */
export type Outcome = "delivered" | "retrying" | "failed";

/** DeliveryAttempt is one attempt to deliver one event. */
export interface DeliveryAttempt {
  /** The event's webhook-id: the same on every attempt at it. */
  eventId: string;
  eventType: string;
  /** 1 for the first attempt at the event. */
  attempt: number;
  attemptedAt: Date;
  /** The receiver's HTTP status; null when there was no answer (see error). */
  statusCode: number | null;
  /** Why the attempt failed; null when it was delivered. */
  error: string | null;
  durationMs: number;
  outcome: Outcome;
}

/** ListDeliveriesResponse is one page of attempts, newest first. */
export interface ListDeliveriesResponse {
  deliveries: DeliveryAttempt[];
  /** Present when older attempts follow; pass it as `cursor`. */
  nextCursor?: string;
}

/** TestDeliveryResponse is how the receiver took the sample event. */
export interface TestDeliveryResponse {
  eventId: string;
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}
