// Fixtures the broker and journal tests share: the app's url-shortened topic and subscriptions to it.
import type { FieldSchema, SubscriptionModel, TopicModel } from "../../model/app-model";

const loc = { file: "url/topic.ts", line: 1, column: 1 };

function field(name: string, kind: "string" | "date"): FieldSchema {
  return { name, wireName: name, optional: false, location: "default", type: { kind } };
}

/** The url-shortened topic, with the message fields the tests publish: a code and a timestamp. */
export const testTopic: TopicModel = {
  name: "url-shortened",
  file: "url/topic.ts",
  loc,
  deliveryGuarantee: "at-least-once",
  orderingAttribute: null,
  message: { fields: [field("code", "string"), field("timestamp", "date")] },
  publishers: [],
};

/** A subscription of the analytics service to testTopic, with Encore's defaults unless `over` says otherwise. */
export function testSubscription(name: string, over: Partial<SubscriptionModel> = {}): SubscriptionModel {
  return {
    topic: testTopic.name,
    name,
    service: "analytics",
    file: `analytics/${name}.ts`,
    loc,
    ackDeadlineMs: 30_000,
    messageRetentionMs: 7 * 86_400_000,
    minBackoffMs: 10_000,
    maxBackoffMs: 600_000,
    maxRetries: 100,
    maxConcurrency: null,
    ...over,
  };
}
