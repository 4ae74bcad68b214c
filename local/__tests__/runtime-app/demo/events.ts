import { api } from "encore.dev/api";
import { Subscription, Topic } from "encore.dev/pubsub";

interface Ping {
  text: string;
  sentAt: Date;
}

const pings = new Topic<Ping>("pings", { deliveryGuarantee: "at-least-once" });
const received: { text: string; dateRevived: boolean }[] = [];

new Subscription(pings, "record-pings", {
  handler: async (msg) => {
    received.push({ text: msg.text, dateRevived: msg.sentAt instanceof Date });
  },
});

export const ping = api({ expose: true, method: "POST", path: "/ping" }, async ({ text }: { text: string }): Promise<{ id: string }> => {
  return { id: await pings.publish({ text, sentAt: new Date() }) };
});

export const pingsReceived = api(
  { expose: true, method: "GET", path: "/pings" },
  async (): Promise<{ received: { text: string; dateRevived: boolean }[] }> => ({ received }),
);
