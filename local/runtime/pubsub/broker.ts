// The in-process message broker behind Topic and Subscription: what NSQ does for `encore run`.
// One queue per subscription declared in the app model, filled at publish time even before the
// subscription's module is imported (like a durable NSQ channel), drained asynchronously with the
// subscription's retry policy and concurrency limit. Under `npm start` a journal on disk keeps what is
// not yet handled across restarts (pubsub/journal.ts); tests keep everything in memory.
import { randomUUID } from "node:crypto";
import type { Napi } from "../../model/napi";
import type { AppModel, ObjectSchema, SubscriptionModel, TopicModel } from "../../model/app-model";
import { Request, newTrace } from "../core/request";
import { runIsolated } from "../wire/isolate";
import { detachedFromTransactions } from "../sqldb/lock";
import type { Journal, JournaledMessage as JournalMessage } from "./journal";
import { announced, announceHandlerSpan, channels } from "../core/events";

/** What the broker needs from the rest of the runtime; injected so tests can use a fake model. */
export interface BrokerDeps {
  model(): Pick<AppModel, "topics" | "subscriptions">;
  /** Message to wire JSON with the topic's schema (Date to RFC 3339, declared fields only). */
  encode(schema: ObjectSchema, value: unknown): Record<string, unknown>;
  /** Wire JSON back to a message; throws when it does not fit the schema. */
  decode(schema: ObjectSchema, value: unknown, what: string): Record<string, unknown>;
  log: BrokerLog;
  /** Where undelivered messages survive a restart; none keeps them in memory only. */
  journal?: Journal;
}

export interface BrokerLog {
  warn(msg: string, fields: Record<string, unknown>, err?: unknown): void;
  error(msg: string, fields: Record<string, unknown>, err?: unknown): void;
}

export type MessageHandler = (req: Napi.Request) => unknown;

/** How the next message on a topic is to be duplicated (see BrokerTestHooks.duplicateNext). */
export interface DuplicateOptions {
  /** Deliveries of the message to each subscription; default 2. */
  copies?: number;
  /** All copies at once (true) or each after the previous one was acknowledged (false, default). */
  concurrent?: boolean;
}

/** Hooks for tests: wait for quiet, force redeliveries, shorten backoffs, start clean. */
export interface BrokerTestHooks {
  drain(topic?: string, timeoutMs?: number): Promise<void>;
  duplicateNext(topic: string, opts?: DuplicateOptions): void;
  setBackoffScale(factor: number): void;
  reset(): void;
}

/** One subscription's queue at a glance. */
export interface SubscriptionStats {
  topic: string;
  subscription: string;
  service: string;
  /** False until the module declaring the subscription was imported. */
  subscribed: boolean;
  queued: number;
  inFlight: number;
  /** Messages waiting out a retry backoff. */
  retrying: number;
}

interface Message {
  id: string;
  /** The encoded body, kept as text so every delivery decodes a fresh copy. */
  wire: string;
  publishedAt: string;
  parentTraceId: string | undefined;
}

/** One message in one subscription's queue; several queue slots may point at it (duplicates). */
interface Entry {
  msg: Message;
  /** Deliveries started so far: NSQ's attempt counter, shared by retries and duplicates. */
  attempts: number;
  /** Sequential duplicate deliveries still owed once the current one is acknowledged. */
  owed: number;
  /** The broker generation it was queued in; reset() abandons older entries. */
  generation: number;
}

/** Encore's local default for max in-flight messages per subscription (nsq/sub.rs). */
const DEFAULT_MAX_CONCURRENCY = 100;
/** NSQ clamps requeue delays to this (nsq/sub.rs). */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** RFC 3339 with whole seconds, as the runtime formats request and publish times. */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function queueKey(sub: SubscriptionModel): string {
  return `${sub.topic}\u0000${sub.name}`;
}

class SubscriptionQueue {
  handler: MessageHandler | null = null;
  ready: Entry[] = [];
  inFlight = 0;
  retryTimers = new Set<NodeJS.Timeout>();

  constructor(
    readonly sub: SubscriptionModel,
    readonly topic: TopicModel,
  ) {}

  get maxInFlight(): number {
    return this.sub.maxConcurrency && this.sub.maxConcurrency > 0 ? this.sub.maxConcurrency : DEFAULT_MAX_CONCURRENCY;
  }

  get idle(): boolean {
    return this.ready.length === 0 && this.inFlight === 0 && this.retryTimers.size === 0;
  }

  /**
   * Backoff before redelivering after failed attempt n: minBackoff * n, capped at maxBackoff — linear,
   * as the NSQ consumer behind `encore run` requeues (base requeue interval times the attempt).
   */
  backoffMs(attempt: number, scale: number): number {
    const min = Math.min(Math.max(this.sub.minBackoffMs, 0), MAX_BACKOFF_MS);
    const max = Math.min(Math.max(this.sub.maxBackoffMs, 0), MAX_BACKOFF_MS);
    return Math.min(min * attempt, max) * scale;
  }

  describe(): string {
    const state = `${this.ready.length} queued, ${this.inFlight} in flight, ${this.retryTimers.size} waiting for a retry`;
    const why = this.handler ? "" : ` (never subscribed: the module declaring it, ${this.sub.file}, was not imported)`;
    return `subscription "${this.sub.name}" on topic "${this.topic.name}": ${state}${why}`;
  }
}

export class Broker {
  private queues = new Map<string, SubscriptionQueue>();
  private duplicates = new Map<string, Required<DuplicateOptions>>();
  private backoffScale = 1;
  private generation = 0;
  private idleWatchers = new Set<() => void>();

  constructor(private readonly deps: BrokerDeps) {
    for (const left of deps.journal?.pending() ?? []) this.requeue(left);
  }

  /** The topic as declared, or a clear error for a name the compiler never saw. */
  topic(name: string): TopicModel {
    const topic = this.deps.model().topics.find((t) => t.name === name);
    if (!topic) throw new Error(`pubsub topic "${name}" is not declared in the app (no new Topic("${name}", ...) was found)`);
    return topic;
  }

  /** The subscription as declared, or a clear error. */
  subscription(topic: string, name: string): SubscriptionModel {
    const sub = this.deps.model().subscriptions.find((s) => s.topic === topic && s.name === name);
    if (!sub) {
      throw new Error(
        `pubsub subscription "${name}" on topic "${topic}" is not declared in the app (no new Subscription(..., "${name}", ...) was found)`,
      );
    }
    return sub;
  }

  /** Encodes the message and queues one copy per declared subscription; resolves with its id. */
  publish(topicName: string, body: unknown, source: Napi.Request | null): Promise<string> {
    const queued = announced(
      channels.publish,
      source,
      "pubsub_publish",
      () => ({ topic: topicName }),
      async () => this.enqueue(topicName, body, source),
      (msg) => ({
        fields: { messageId: msg.id, message: msg.wire },
      }),
    );
    return queued.then((msg) => msg.id);
  }

  private enqueue(topicName: string, body: unknown, source: Napi.Request | null): Message {
    if (body === null || body === undefined) throw new Error("failed to publish: no message payload provided");
    const topic = this.topic(topicName);
    const msg: Message = {
      id: randomUUID(),
      wire: JSON.stringify(this.deps.encode(topic.message, body)),
      publishedAt: rfc3339(new Date()),
      parentTraceId: source?.meta().trace?.traceId,
    };
    const dup = this.duplicates.get(topicName);
    this.duplicates.delete(topicName);
    const subs = this.subscriptionsOf(topicName);
    this.deps.journal?.published({ ...msg, topic: topicName, subscriptions: subs.map((s) => s.name) });
    for (const sub of subs) {
      const q = this.queue(sub);
      const entry: Entry = { msg, attempts: 0, owed: dup && !dup.concurrent ? dup.copies - 1 : 0, generation: this.generation };
      const slots = dup?.concurrent ? dup.copies : 1;
      for (let i = 0; i < slots; i++) q.ready.push(entry);
      this.pump(q);
    }
    return msg;
  }

  /** Starts delivering to the handler; the promise stays pending for as long as the process runs. */
  subscribe(topic: string, name: string, handler: MessageHandler): Promise<void> {
    const q = this.queue(this.subscription(topic, name));
    q.handler = handler;
    this.pump(q);
    return new Promise<void>(() => {});
  }

  /** Each declared subscription's queue: what the dashboard shows as queued, in flight and retrying. */
  stats(): SubscriptionStats[] {
    return this.deps.model().subscriptions.map((sub) => {
      const q = this.queues.get(queueKey(sub));
      return {
        topic: sub.topic,
        subscription: sub.name,
        service: sub.service,
        subscribed: q?.handler != null,
        queued: q?.ready.length ?? 0,
        inFlight: q?.inFlight ?? 0,
        retrying: q?.retryTimers.size ?? 0,
      };
    });
  }

  readonly testHooks: BrokerTestHooks = {
    drain: (topic, timeoutMs) => this.drain(topic, timeoutMs),
    duplicateNext: (topic, opts) => {
      this.topic(topic);
      const copies = opts?.copies ?? 2;
      if (!Number.isInteger(copies) || copies < 1) throw new Error(`duplicateNext: copies must be a positive integer, got ${copies}`);
      this.duplicates.set(topic, { copies, concurrent: opts?.concurrent ?? false });
    },
    setBackoffScale: (factor) => {
      if (!Number.isFinite(factor) || factor < 0) throw new Error(`setBackoffScale: factor must be a finite number >= 0, got ${factor}`);
      this.backoffScale = factor;
    },
    reset: () => {
      this.generation++;
      for (const q of this.queues.values()) {
        q.ready = [];
        for (const t of q.retryTimers) clearTimeout(t);
        q.retryTimers.clear();
      }
      this.duplicates.clear();
      this.notifyIdleWatchers();
    },
  };

  /** Queues a message a previous run left undelivered, for each subscription still owed it. */
  private requeue(left: JournalMessage): void {
    const { subscriptions, topic, ...msg } = left;
    for (const name of subscriptions) {
      const sub = this.deps.model().subscriptions.find((s) => s.topic === topic && s.name === name);
      if (!sub) {
        this.deps.log.warn("dropping an undelivered message: its subscription is no longer declared", {
          topic,
          subscription: name,
          messageId: msg.id,
        });
        this.deps.journal?.settled(msg.id, name);
        continue;
      }
      this.queue(sub).ready.push({ msg, attempts: 0, owed: 0, generation: this.generation });
    }
  }

  private subscriptionsOf(topic: string): SubscriptionModel[] {
    return this.deps.model().subscriptions.filter((s) => s.topic === topic);
  }

  private queue(sub: SubscriptionModel): SubscriptionQueue {
    let q = this.queues.get(queueKey(sub));
    if (!q) {
      q = new SubscriptionQueue(sub, this.topic(sub.topic));
      this.queues.set(queueKey(sub), q);
    }
    return q;
  }

  /** Starts as many deliveries as the concurrency limit allows. */
  private pump(q: SubscriptionQueue): void {
    if (!q.handler) return;
    while (q.inFlight < q.maxInFlight && q.ready.length > 0) {
      const entry = q.ready.shift()!;
      entry.attempts++;
      q.inFlight++;
      void this.deliver(q, q.handler, entry, entry.attempts);
    }
  }

  private async deliver(q: SubscriptionQueue, handler: MessageHandler, entry: Entry, attempt: number): Promise<void> {
    let failure: { error: unknown } | null = null;
    // runIsolated runs the handler at once: without this step, publish() would run each subscriber up to
    // its first await before it returns, where Encore delivers later, apart from the publisher.
    await null;
    try {
      // Decoding inside the delivery makes a message that no longer fits its schema a nack, as in Encore.
      // Each delivery is a flow of its own: it inherits no transaction from the publisher's context.
      await detachedFromTransactions(() => runIsolated(() => this.traceDelivery(q, this.request(q, entry.msg, attempt), handler)));
    } catch (error) {
      failure = { error };
    }
    q.inFlight--;
    if (entry.generation === this.generation) {
      if (failure) this.retryOrDrop(q, entry, attempt, failure.error);
      else if (entry.owed > 0) {
        entry.owed--;
        q.ready.push(entry);
      } else this.deps.journal?.settled(entry.msg.id, q.sub.name);
    }
    this.pump(q);
    this.notifyIdleWatchers();
  }

  /** Runs the handler inside a PUBSUB_MESSAGE span (Encore traces every delivery attempt). */
  private async traceDelivery(q: SubscriptionQueue, req: Request, handler: MessageHandler): Promise<unknown> {
    const span = channels.span.hasSubscribers
      ? announceHandlerSpan(req, "pubsub_message", { service: q.sub.service, payload: req.payload() })
      : null;
    try {
      const result = await handler(req);
      span?.end();
      return result;
    } catch (e) {
      span?.end(e);
      throw e;
    }
  }

  private request(q: SubscriptionQueue, msg: Message, attempt: number): Request {
    const payload = this.deps.decode(q.topic.message, JSON.parse(msg.wire), "unable to parse message payload");
    return new Request({
      payload,
      meta: {
        startedAt: rfc3339(new Date()),
        trace: { ...newTrace(), parentTraceId: msg.parentTraceId },
        pubsubMessage: {
          service: q.sub.service,
          topic: q.sub.topic,
          subscription: q.sub.name,
          id: msg.id,
          publishedAt: msg.publishedAt,
          deliveryAttempt: attempt,
          parsedPayload: payload as Napi.PubSubMessageData["parsedPayload"],
        },
      },
    });
  }

  /** A nack: redeliver after the backoff, or drop once maxRetries retries were used (NSQ has no DLQ). */
  private retryOrDrop(q: SubscriptionQueue, entry: Entry, attempt: number, error: unknown): void {
    const fields = { topic: q.sub.topic, subscription: q.sub.name, messageId: entry.msg.id, attempt };
    if (attempt > q.sub.maxRetries) {
      entry.owed = 0;
      this.deps.journal?.settled(entry.msg.id, q.sub.name);
      this.deps.log.error(`pubsub message dropped after ${q.sub.maxRetries} retries`, fields, error);
      return;
    }
    const delay = q.backoffMs(attempt, this.backoffScale);
    this.deps.log.warn("subscription handler failed, message will be redelivered", { ...fields, retryInMs: delay }, error);
    const timer = setTimeout(() => {
      q.retryTimers.delete(timer);
      q.ready.push(entry);
      this.pump(q);
      this.notifyIdleWatchers();
    }, delay);
    // A pending retry must not keep a finished process alive; the journal (if any) redelivers it next run.
    timer.unref();
    q.retryTimers.add(timer);
  }

  private busyQueues(topic: string | undefined): SubscriptionQueue[] {
    const subs = topic === undefined ? this.deps.model().subscriptions : this.subscriptionsOf(topic);
    return subs.map((s) => this.queues.get(queueKey(s))).filter((q): q is SubscriptionQueue => q !== undefined && !q.idle);
  }

  private async drain(topic: string | undefined, timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<void> {
    if (topic !== undefined) this.topic(topic);
    return new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (this.busyQueues(topic).length > 0) return;
        stop();
        resolve();
      };
      const timer = setTimeout(() => {
        const stuck = this.busyQueues(topic).map((q) => q.describe());
        stop();
        const what = topic === undefined ? "pubsub drain" : `pubsub drain of topic "${topic}"`;
        reject(new Error(`${what} timed out after ${timeoutMs} ms; still busy: ${stuck.join("; ")}`));
      }, timeoutMs);
      const stop = (): void => {
        clearTimeout(timer);
        this.idleWatchers.delete(check);
      };
      this.idleWatchers.add(check);
      check();
    });
  }

  private notifyIdleWatchers(): void {
    for (const check of [...this.idleWatchers]) check();
  }
}
