// The objects the SDK's Topic and Subscription hold (runtime.RT.pubsubTopic / pubsubSubscription).
import type { Napi } from "../../model/napi";
import type { Broker } from "./broker";

export class PubSubTopic implements Napi.PubSubTopic {
  constructor(
    private readonly broker: Broker,
    private readonly name: string,
  ) {}

  /** Resolves with the message id once every subscription has its copy queued. */
  publish(body: unknown, source?: Napi.Request | null): Promise<string> {
    return this.broker.publish(this.name, body, source ?? null);
  }
}

export class PubSubSubscription implements Napi.PubSubSubscription {
  constructor(
    private readonly broker: Broker,
    private readonly cfg: Napi.PubSubSubscriptionConfig,
  ) {}

  /** Never settles while the process runs; the SDK would re-subscribe if it did. */
  subscribe(): Promise<void> {
    return this.broker.subscribe(this.cfg.topicName, this.cfg.subscriptionName, this.cfg.handler);
  }
}
