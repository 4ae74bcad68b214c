// Pub/Sub for the local runtime: an in-process, asynchronous, at-least-once broker (broker.ts)
// standing in for the NSQ daemon `encore run` uses. Under `npm start` what is still queued or waiting
// for a retry is journaled in <data dir>/pubsub/ and delivered again after a restart, as NSQ keeps it on
// disk; test processes keep messages in memory only (each test run starts empty).
import type { Napi } from "../../model/napi";
import path from "node:path";
import { dataDir } from "../../model/layout.mjs";
import { appModel, testMode } from "../core/context";
import { decodeJson, encodeJson } from "../wire/value-codec";
import { rootLogger } from "../core/logger";
import { LogLevel } from "../core/napi-enums";
import { Broker, type BrokerTestHooks, type SubscriptionStats } from "./broker";
import { FileJournal } from "./journal";
import { PubSubSubscription, PubSubTopic } from "./handles";

export { PubSubTopic, PubSubSubscription };

function logAt(level: Napi.LogLevel) {
  return (msg: string, fields: Record<string, unknown>, err?: unknown): void => {
    const error = err === undefined || err instanceof Error ? err : new Error(String(err));
    rootLogger.log(null, level, msg, error, undefined, fields);
  };
}

const broker = new Broker({
  model: appModel,
  encode: encodeJson,
  decode: decodeJson,
  log: { warn: logAt(LogLevel.Warn), error: logAt(LogLevel.Error) },
  journal: testMode ? undefined : new FileJournal(path.join(dataDir, "pubsub")),
});

/**
 * LOCAL_PUBSUB_BACKOFF_SCALE multiplies every retry backoff of a spawned `npm start` (0.01 turns 30 s into
 * 0.3 s), for end-to-end tests that must see retries without waiting minutes; in-process tests use
 * setRetryBackoffScale instead.
 */
const backoffScale = process.env.LOCAL_PUBSUB_BACKOFF_SCALE;
if (backoffScale !== undefined) broker.testHooks.setBackoffScale(Number(backoffScale));

export function openTopic(name: string): PubSubTopic {
  return new PubSubTopic(broker, broker.topic(name).name);
}

export function openSubscription(cfg: Napi.PubSubSubscriptionConfig): PubSubSubscription {
  broker.subscription(cfg.topicName, cfg.subscriptionName);
  return new PubSubSubscription(broker, cfg);
}

/**
 * For tests (through local/testing.ts): drain(topic?, timeoutMs = 10 s) waits until nothing is queued,
 * in flight or waiting for a retry; duplicateNext(topic, { copies, concurrent }) redelivers the next
 * message; setBackoffScale(f) multiplies every retry backoff; reset() drops everything queued.
 */
export const pubsubTestHooks: BrokerTestHooks = broker.testHooks;

/** Queued, in-flight and retrying messages of every subscription (the dashboard's Pub/Sub view). */
export function pubsubStats(): SubscriptionStats[] {
  return broker.stats();
}
