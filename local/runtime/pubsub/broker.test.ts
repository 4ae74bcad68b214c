import { describe, it, expect, beforeEach } from "vitest";
import type { Napi } from "../../model/napi";
import type { SubscriptionModel } from "../../model/app-model";
import { decodeJson, encodeJson } from "../wire/value-codec";
import { Broker } from "./broker";
import { testSubscription as sub, testTopic as topic } from "./testkit";

interface LogEntry {
  level: "warn" | "error";
  msg: string;
  fields: Record<string, unknown>;
  err: unknown;
}

function setup(subscriptions: SubscriptionModel[]) {
  const logs: LogEntry[] = [];
  const broker = new Broker({
    model: () => ({ topics: [topic], subscriptions }),
    encode: encodeJson,
    decode: decodeJson,
    log: {
      warn: (msg, fields, err) => logs.push({ level: "warn", msg, fields, err }),
      error: (msg, fields, err) => logs.push({ level: "error", msg, fields, err }),
    },
  });
  // Backoffs of 10 s become 1 ms.
  broker.testHooks.setBackoffScale(0.0001);
  return { broker, hooks: broker.testHooks, logs };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const event = { code: "abc123", timestamp: new Date("2024-03-01T23:59:59.500Z") };

describe("pubsub broker", () => {
  let received: Napi.Request[];
  beforeEach(() => {
    received = [];
  });

  it("delivers a published message to the subscription with Encore's request metadata", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    void broker.subscribe(topic.name, "track-analytics", (req) => {
      received.push(req);
    });
    const id = await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);

    expect(received).toHaveLength(1);
    const meta = received[0].meta();
    expect(meta.pubsubMessage).toMatchObject({
      service: "analytics",
      topic: "url-shortened",
      subscription: "track-analytics",
      id,
      deliveryAttempt: 1,
    });
    expect(meta.pubsubMessage!.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(meta.apiCall).toBeUndefined();
    expect(meta.trace?.traceId).toMatch(/^[0-9a-v]{26}$/);
  });

  it("starts a delivery only after publish has returned, apart from the publisher", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    const order: string[] = [];
    void broker.subscribe(topic.name, "track-analytics", () => void order.push("delivered"));
    const published = broker.publish(topic.name, event, null);
    order.push("published");
    await published;
    await hooks.drain(topic.name);
    expect(order).toEqual(["published", "delivered"]);
  });

  it("revives Date fields from their RFC 3339 wire form and keeps only declared fields", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    void broker.subscribe(topic.name, "track-analytics", (req) => {
      received.push(req);
    });
    await broker.publish(topic.name, { ...event, undeclared: 1 }, null);
    await hooks.drain();

    const payload = received[0].payload() as { code: string; timestamp: Date };
    expect(payload.timestamp).toBeInstanceOf(Date);
    expect(payload.timestamp.toISOString()).toBe("2024-03-01T23:59:59.500Z");
    expect(payload).toEqual({ code: "abc123", timestamp: event.timestamp });
  });

  it("gives every declared subscription its own copy", async () => {
    const { broker, hooks } = setup([sub("a"), sub("b")]);
    const seen: string[] = [];
    void broker.subscribe(topic.name, "a", () => void seen.push("a"));
    void broker.subscribe(topic.name, "b", () => void seen.push("b"));
    await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);
    expect(seen.sort()).toEqual(["a", "b"]);
  });

  it("redelivers after a failure with deliveryAttempt 2 and the same message id", async () => {
    const { broker, hooks, logs } = setup([sub("track-analytics")]);
    const attempts: { attempt: number; id: string }[] = [];
    void broker.subscribe(topic.name, "track-analytics", async (req) => {
      const m = req.meta().pubsubMessage!;
      attempts.push({ attempt: m.deliveryAttempt, id: m.id });
      if (m.deliveryAttempt === 1) throw new Error("database unavailable");
    });
    const id = await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);

    expect(attempts).toEqual([
      { attempt: 1, id },
      { attempt: 2, id },
    ]);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: "warn", fields: { attempt: 1, retryInMs: 1 } });
    expect((logs[0].err as Error).message).toBe("database unavailable");
  });

  it("backs off linearly from minBackoff (as encore run's NSQ does), capped at maxBackoff", async () => {
    const { broker, hooks, logs } = setup([sub("s", { minBackoffMs: 1_000, maxBackoffMs: 3_000, maxRetries: 4 })]);
    hooks.setBackoffScale(0.001);
    void broker.subscribe(topic.name, "s", () => {
      throw new Error("always");
    });
    await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);
    expect(logs.filter((l) => l.level === "warn").map((l) => l.fields.retryInMs)).toEqual([1, 2, 3, 3]);
  });

  it("drops a message after maxRetries retries and logs an error", async () => {
    const { broker, hooks, logs } = setup([sub("track-analytics", { maxRetries: 2 })]);
    const attempts: number[] = [];
    void broker.subscribe(topic.name, "track-analytics", (req) => {
      attempts.push(req.meta().pubsubMessage!.deliveryAttempt);
      return Promise.reject(new Error("broken handler"));
    });
    const id = await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);

    expect(attempts).toEqual([1, 2, 3]);
    const dropped = logs.filter((l) => l.level === "error");
    expect(dropped).toHaveLength(1);
    expect(dropped[0].msg).toBe("pubsub message dropped after 2 retries");
    expect(dropped[0].fields).toMatchObject({ messageId: id, subscription: "track-analytics", attempt: 3 });
  });

  it("nacks a message that does not fit the topic's schema", async () => {
    const { broker, hooks, logs } = setup([sub("track-analytics", { maxRetries: 0 })]);
    let called = false;
    void broker.subscribe(topic.name, "track-analytics", () => void (called = true));
    await broker.publish(topic.name, { timestamp: new Date() }, null);
    await hooks.drain(topic.name);

    expect(called).toBe(false);
    expect((logs[0].err as Error).message).toBe("unable to parse message payload: missing field code");
  });

  it("duplicateNext delivers copies one after another as redeliveries of the same message", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    const active = new Map<string, number>();
    let maxActiveCopies = 0;
    const seen: { id: string; attempt: number }[] = [];
    void broker.subscribe(topic.name, "track-analytics", async (req) => {
      const m = req.meta().pubsubMessage!;
      active.set(m.id, (active.get(m.id) ?? 0) + 1);
      maxActiveCopies = Math.max(maxActiveCopies, active.get(m.id)!);
      await new Promise((r) => setTimeout(r, 5));
      seen.push({ id: m.id, attempt: m.deliveryAttempt });
      active.set(m.id, active.get(m.id)! - 1);
    });
    hooks.duplicateNext(topic.name, { copies: 3, concurrent: false });
    const id = await broker.publish(topic.name, event, null);
    await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name);

    expect(maxActiveCopies).toBe(1);
    expect(seen.filter((s) => s.id === id)).toEqual([
      { id, attempt: 1 },
      { id, attempt: 2 },
      { id, attempt: 3 },
    ]);
    // Only the next message is duplicated.
    expect(seen).toHaveLength(4);
  });

  it("duplicateNext with concurrent delivers all copies at the same time", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    const bothArrived = deferred();
    const ids: string[] = [];
    void broker.subscribe(topic.name, "track-analytics", async (req) => {
      ids.push(req.meta().pubsubMessage!.id);
      if (ids.length === 2) bothArrived.resolve();
      // Each copy waits until the other one is in the handler too.
      await bothArrived.promise;
    });
    hooks.duplicateNext(topic.name, { copies: 2, concurrent: true });
    const id = await broker.publish(topic.name, event, null);
    await hooks.drain(topic.name, 2_000);
    expect(ids).toEqual([id, id]);
  });

  it("keeps a message for a subscription whose module was not imported yet", async () => {
    const { broker, hooks } = setup([sub("late")]);
    await broker.publish(topic.name, event, null);

    await expect(hooks.drain(topic.name, 50)).rejects.toThrow(
      'pubsub drain of topic "url-shortened" timed out after 50 ms; still busy: subscription "late" on topic "url-shortened": ' +
        "1 queued, 0 in flight, 0 waiting for a retry (never subscribed: the module declaring it, analytics/late.ts, was not imported)",
    );

    void broker.subscribe(topic.name, "late", (req) => void received.push(req));
    await hooks.drain(topic.name);
    expect(received).toHaveLength(1);
  });

  it("names a handler that never finishes when drain times out", async () => {
    const { broker, hooks } = setup([sub("stuck")]);
    const release = deferred();
    void broker.subscribe(topic.name, "stuck", () => release.promise);
    await broker.publish(topic.name, event, null);
    await expect(hooks.drain(undefined, 30)).rejects.toThrow(
      'pubsub drain timed out after 30 ms; still busy: subscription "stuck" on topic "url-shortened": 0 queued, 1 in flight, 0 waiting for a retry',
    );
    release.resolve();
    await hooks.drain();
  });

  it("never runs more handlers at once than maxConcurrency", async () => {
    const { broker, hooks } = setup([sub("capped", { maxConcurrency: 2 })]);
    let active = 0;
    let maxActive = 0;
    let done = 0;
    void broker.subscribe(topic.name, "capped", async () => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
      done++;
    });
    for (let i = 0; i < 6; i++) await broker.publish(topic.name, { ...event, code: `c${i}` }, null);
    await hooks.drain(topic.name);
    expect(done).toBe(6);
    expect(maxActive).toBe(2);
  });

  it("reset drops queued messages and pending retries", async () => {
    const { broker, hooks } = setup([sub("late"), sub("failing")]);
    hooks.setBackoffScale(1);
    void broker.subscribe(topic.name, "failing", () => {
      throw new Error("fails");
    });
    await broker.publish(topic.name, event, null);
    await expect(hooks.drain(topic.name, 30)).rejects.toThrow(/"failing".*1 waiting for a retry/);
    hooks.reset();
    await hooks.drain(topic.name, 30);
  });

  it("rejects a publish without payload and unknown names with clear errors", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    await expect(broker.publish(topic.name, undefined, null)).rejects.toThrow("failed to publish: no message payload provided");
    await expect(broker.publish("nope", event, null)).rejects.toThrow('pubsub topic "nope" is not declared in the app');
    expect(() => broker.subscribe(topic.name, "nope", () => {})).toThrow(
      'pubsub subscription "nope" on topic "url-shortened" is not declared in the app',
    );
    await expect(hooks.drain("nope")).rejects.toThrow('pubsub topic "nope" is not declared');
    expect(() => hooks.duplicateNext(topic.name, { copies: 0 })).toThrow("copies must be a positive integer");
  });

  it("gives each delivery the publisher's trace as parent", async () => {
    const { broker, hooks } = setup([sub("track-analytics")]);
    void broker.subscribe(topic.name, "track-analytics", (req) => void received.push(req));
    const source = { meta: () => ({ startedAt: "", trace: { traceId: "a".repeat(32), spanId: "b".repeat(16) } }) } as Napi.Request;
    await broker.publish(topic.name, event, source);
    await hooks.drain();
    const trace = received[0].meta().trace!;
    expect(trace.parentTraceId).toBe("a".repeat(32));
    expect(trace.traceId).not.toBe("a".repeat(32));
  });
});
