// The transactional state of the app's group-committed batches (clicks, stats reads, analytics' counts,
// outbox removals): what GroupCommit announces on the `group-commit` diagnostics channel, kept here for
// the dashboard.
import diagnostics_channel from "node:diagnostics_channel";
import type { TraceError } from "../trace/model";
import { traceError } from "../trace/tracer";

/** lib/group-commit.ts's BATCH_CHANNEL (named, not imported: the runtime never imports the app). */
const CHANNEL = "group-commit";
/** Finished batches kept per queue. */
const RECENT = 20;
/** Live updates are sent at most this often, however fast batches go. */
const UPDATE_MS = 100;

/** The messages GroupCommit publishes (lib/group-commit.ts BatchMessage). */
type Message =
  | { name: string; event: "queue"; queued: number }
  | { name: string; event: "start"; batch: number; size: number; queued: number }
  | { name: string; event: "end"; batch: number; size: number; queued: number; durationMs: number; error?: unknown };

export interface BatchRecord {
  batch: number;
  size: number;
  /** Epoch milliseconds. */
  startedAt: number;
  durationMs?: number;
  state: "in flight" | "committed" | "failed";
  error?: TraceError;
}

export interface BatchQueue {
  name: string;
  /** Items waiting for the next batch. */
  queued: number;
  inFlight: BatchRecord | null;
  /** The last finished batches, newest first. */
  recent: BatchRecord[];
}

export class BatchWatch {
  private readonly queues = new Map<string, BatchQueue>();
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private readonly onMessage = (m: unknown): void => this.heard(m as Message);

  constructor() {
    diagnostics_channel.subscribe(CHANNEL, this.onMessage);
  }

  close(): void {
    diagnostics_channel.unsubscribe(CHANNEL, this.onMessage);
    if (this.timer) clearTimeout(this.timer);
  }

  /** Every queue heard of so far. */
  state(): BatchQueue[] {
    return [...this.queues.values()];
  }

  /** Calls fn after changes, at most every UPDATE_MS; returns the function that stops listening. */
  listen(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private heard(m: Message): void {
    let q = this.queues.get(m.name);
    if (q === undefined) {
      q = { name: m.name, queued: 0, inFlight: null, recent: [] };
      this.queues.set(m.name, q);
    }
    q.queued = m.queued;
    if (m.event === "start") {
      q.inFlight = { batch: m.batch, size: m.size, startedAt: Date.now(), state: "in flight" };
    } else if (m.event === "end") {
      const startedAt = q.inFlight?.batch === m.batch ? q.inFlight.startedAt : Date.now() - m.durationMs;
      const done: BatchRecord = {
        batch: m.batch,
        size: m.size,
        startedAt,
        durationMs: m.durationMs,
        state: m.error ? "failed" : "committed",
      };
      if (m.error) done.error = traceError(m.error);
      q.inFlight = null;
      q.recent.unshift(done);
      q.recent.length = Math.min(q.recent.length, RECENT);
    }
    if (this.listeners.size > 0 && this.timer === null) {
      this.timer = setTimeout(() => {
        this.timer = null;
        for (const fn of this.listeners) fn();
      }, UPDATE_MS);
      this.timer.unref();
    }
  }
}
