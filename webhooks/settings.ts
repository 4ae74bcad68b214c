// WEBHOOKS_ALLOW_PRIVATE=1 lets webhooks reach loopback and private addresses: for development and
// tests, where the receiver runs on the same machine. Read on each delivery (a test may set it), and
// announced at start-up, because in production it would reopen the SSRF hole the guard closes.
import log from "encore.dev/log";
import type { OutboundPolicy } from "../lib/guarded-post";

/** The addresses a delivery may reach under the current setting. */
export function deliveryPolicy(): OutboundPolicy {
  return { allowPrivate: process.env.WEBHOOKS_ALLOW_PRIVATE === "1" };
}

if (deliveryPolicy().allowPrivate) {
  log.warn(
    "WEBHOOKS_ALLOW_PRIVATE=1: webhooks may be delivered to loopback and private addresses; for development and tests only, never in production",
  );
}
