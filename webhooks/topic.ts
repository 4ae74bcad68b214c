// The webhook-deliveries topic: one message per event and webhook, so each webhook is retried on its own.
import { Topic } from "encore.dev/pubsub";

/** WebhookDelivery is one event owed to one webhook. */
export interface WebhookDelivery {
  webhookId: string;
  /** The webhook-id header: stable across retries and republishing, so receivers can drop copies. */
  eventId: string;
  type: string;
  /** The request body, exactly as signed and sent on every attempt. */
  body: string;
}

/** webhookDeliveries carries each owed delivery to the subscription that sends it (webhooks/deliver.ts). */
export const webhookDeliveries = new Topic<WebhookDelivery>("webhook-deliveries", {
  deliveryGuarantee: "at-least-once",
});
