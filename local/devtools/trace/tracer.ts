// The tracer: spans and their events for every request, auth call, service call and Pub/Sub delivery,
// kept in memory as a ring of the last N traces (what the dashboard lists and shows). Spans are found
// by the span id in a request's trace data, the handle every native call receives as its `source`.
import { AsyncLocalStorage } from "node:async_hooks";
import type { SpanIds } from "../../runtime/core/events";
import type { EventKind, SpanRecord, TraceError, TraceEvent, TraceRecord, TraceSummary } from "./model";

export interface TracerOptions {
  /** Record anything at all (LOCAL_TRACE=0 turns tracing off). */
  enabled: boolean;
  /** Traces kept; the oldest is dropped when a new one starts (LOCAL_TRACE_RING, default 200). */
  capacity: number;
  /** Fraction of root spans recorded, 0..1 (LOCAL_TRACE_SAMPLE, default 1: no sampling). */
  sampleRate: number;
  /** Events kept per span; further ones are counted as dropped. */
  maxEventsPerSpan: number;
  /** Longest payload text kept, in characters; longer ones are cut and marked. */
  maxPayloadChars: number;
}

/** What a span starts with; ids come from the request's trace data. */
export type SpanInit = Omit<SpanRecord, "events" | "droppedEvents" | "start" | "traceId" | "spanId" | "parentSpanId" | "parentTraceId">;

/** What listeners hear: a span started or ended (the dashboard's live updates). */
export type TraceNotice = { type: "span-start" | "span-end"; span: SpanRecord; trace: TraceRecord };

/** Milliseconds since the epoch, with sub-millisecond precision. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** A value as display text (JSON), cut to `max` characters. */
export function payloadText(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  let text: string;
  try {
    text =
      typeof value === "string" ? value : Buffer.isBuffer(value) ? `<${value.length} bytes>` : (JSON.stringify(value) ?? String(value));
  } catch (e) {
    text = `<not serializable: ${(e as Error).message}>`;
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters, cut)` : text;
}

/** Any thrown value as a trace error (code and message of an APIError, else the message). */
export function traceError(e: unknown): TraceError {
  if (e && typeof e === "object") {
    const o = e as { code?: unknown; message?: unknown };
    return { code: typeof o.code === "string" ? o.code : undefined, message: typeof o.message === "string" ? o.message : String(e) };
  }
  return { message: String(e) };
}

/** A span being recorded. */
export class ActiveSpan {
  constructor(
    private readonly tracer: Tracer,
    readonly trace: TraceRecord,
    readonly record: SpanRecord,
  ) {}

  /** Starts an event (an operation with a start and an end); null once the span's event limit is reached. */
  begin(kind: EventKind, fields: Record<string, unknown>): TraceEvent | null {
    const r = this.record;
    if (r.events.length >= this.tracer.options.maxEventsPerSpan) {
      r.droppedEvents++;
      return null;
    }
    const ev: TraceEvent = { id: this.trace.nextEventId++, kind, start: now(), fields };
    r.events.push(ev);
    return ev;
  }

  /** Ends an event, adding what its end message carries. */
  finish(ev: TraceEvent | null, extra?: Record<string, unknown> | null, error?: unknown): void {
    if (ev === null) return;
    ev.durationMs = now() - ev.start;
    if (extra) Object.assign(ev.fields, extra);
    if (error !== undefined && error !== null) ev.error = traceError(error);
  }

  /** A log line: an instant event. */
  log(fields: Record<string, unknown>): void {
    const ev = this.begin("log", fields);
    if (ev) ev.durationMs = 0;
  }

  /** Payload text within the tracer's size limit. */
  text(value: unknown): string | undefined {
    return payloadText(value, this.tracer.options.maxPayloadChars);
  }

  /** Ends the span; further calls do nothing. */
  end(extra?: Partial<SpanRecord>, error?: unknown): void {
    const r = this.record;
    if (r.durationMs !== undefined) return;
    if (extra) Object.assign(r, extra);
    if (error !== undefined && error !== null) r.error = traceError(error);
    r.durationMs = now() - r.start;
    this.tracer.ended(this);
  }
}

/** Reads the tracer's options from the environment. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): TracerOptions {
  const num = (name: string, fallback: number, ok: (n: number) => boolean): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!ok(n))
      throw new Error(
        `${name}=${raw} is not valid (expected ${name === "LOCAL_TRACE_SAMPLE" ? "a number from 0 to 1" : "a positive integer"})`,
      );
    return n;
  };
  return {
    enabled: env.LOCAL_TRACE !== "0",
    capacity: num("LOCAL_TRACE_RING", 200, (n) => Number.isInteger(n) && n > 0),
    sampleRate: num("LOCAL_TRACE_SAMPLE", 1, (n) => n >= 0 && n <= 1),
    maxEventsPerSpan: 2000,
    maxPayloadChars: 64 * 1024,
  };
}

export class Tracer {
  private readonly traces = new Map<string, TraceRecord>();
  private readonly active = new Map<string, ActiveSpan>();
  private readonly listeners = new Set<(n: TraceNotice) => void>();
  /** Set by capture(): hears the trace id of the first root span started inside it. */
  private readonly rootWatch = new AsyncLocalStorage<(traceId: string) => void>();

  constructor(readonly options: TracerOptions) {}

  /** The span a request handle belongs to, while it runs and is recorded. */
  spanOf(spanId: string | undefined): ActiveSpan | null {
    return spanId === undefined ? null : (this.active.get(spanId) ?? null);
  }

  /**
   * Starts a span. A span with a parent span is recorded when its parent is (so a sampled-out request
   * stays out whole); any other span is a root, recorded at the sampling rate.
   */
  start(ids: SpanIds, init: SpanInit): ActiveSpan | null {
    const o = this.options;
    if (!o.enabled) return null;
    if (ids.parentSpanId !== undefined) {
      if (!this.active.has(ids.parentSpanId)) return null;
    } else if (o.sampleRate < 1 && Math.random() >= o.sampleRate) {
      return null;
    }
    let trace = this.traces.get(ids.traceId);
    if (trace === undefined) {
      trace = { traceId: ids.traceId, parentTraceId: ids.parentTraceId, start: now(), spans: [], nextEventId: 1 };
      this.traces.set(ids.traceId, trace);
      if (this.traces.size > o.capacity) this.traces.delete(this.traces.keys().next().value!);
      if (ids.parentSpanId === undefined) this.rootWatch.getStore()?.(ids.traceId);
    }
    const record = init as SpanRecord;
    record.traceId = ids.traceId;
    record.spanId = ids.spanId;
    if (ids.parentSpanId !== undefined) record.parentSpanId = ids.parentSpanId;
    if (ids.parentTraceId !== undefined) record.parentTraceId = ids.parentTraceId;
    record.start = now();
    record.events = [];
    record.droppedEvents = 0;
    trace.spans.push(record);
    const span = new ActiveSpan(this, trace, record);
    this.active.set(ids.spanId, span);
    if (this.listeners.size > 0) this.notify({ type: "span-start", span: record, trace });
    return span;
  }

  /** Called by ActiveSpan.end. */
  ended(span: ActiveSpan): void {
    this.active.delete(span.record.spanId);
    if (this.listeners.size > 0) this.notify({ type: "span-end", span: span.record, trace: span.trace });
  }

  /** Runs fn and resolves with the id of the first root trace it started (a cron run, an explorer call). */
  async capture<T>(fn: () => Promise<T>): Promise<{ traceId: string | null; result: PromiseSettledResult<T> }> {
    let traceId: string | null = null;
    const result = await this.rootWatch.run(
      (id) => (traceId ??= id),
      () =>
        fn().then(
          (value): PromiseSettledResult<T> => ({ status: "fulfilled", value }),
          (reason): PromiseSettledResult<T> => ({ status: "rejected", reason }),
        ),
    );
    return { traceId, result };
  }

  /** Listens to span starts and ends; returns the function that stops listening. */
  listen(fn: (n: TraceNotice) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Newest first, those the filter accepts. */
  list(limit = this.options.capacity, filter: TraceFilter = {}): TraceSummary[] {
    const children = new Map<string, TraceRecord[]>();
    for (const t of this.traces.values()) {
      if (t.parentTraceId !== undefined) children.set(t.parentTraceId, [...(children.get(t.parentTraceId) ?? []), t]);
    }
    const out: TraceSummary[] = [];
    for (const t of [...this.traces.values()].reverse()) {
      if (out.length >= limit) break;
      const sum = summarize(t, children.get(t.traceId));
      if (matches(sum, filter)) out.push(sum);
    }
    return out;
  }

  /** A trace's list row, counting the rows its waterfall shows: its spans and their events, and those of the deliveries it caused. */
  summary(t: TraceRecord): TraceSummary {
    return summarize(t, this.linked(t.traceId));
  }

  /** Traces kept from an earlier run, older than every trace of this one; the ring keeps its capacity. */
  restore(earlier: TraceRecord[]): void {
    const merged = new Map<string, TraceRecord>();
    for (const t of [...earlier].sort((a, b) => a.start - b.start)) if (!this.traces.has(t.traceId)) merged.set(t.traceId, t);
    for (const [id, t] of this.traces) merged.set(id, t);
    this.traces.clear();
    const keep = [...merged].slice(-this.options.capacity);
    for (const [id, t] of keep) this.traces.set(id, t);
  }

  /** Whether every span of the trace has ended (what is kept on disk is final). */
  finished(t: TraceRecord): boolean {
    return t.spans.every((s) => !this.active.has(s.spanId));
  }

  get(traceId: string): TraceRecord | null {
    return this.traces.get(traceId) ?? null;
  }

  /** Traces started by this one: the Pub/Sub deliveries of messages it published. */
  linked(traceId: string): TraceRecord[] {
    return [...this.traces.values()].filter((t) => t.parentTraceId === traceId);
  }

  clear(): void {
    this.traces.clear();
  }

  private notify(n: TraceNotice): void {
    for (const fn of this.listeners) {
      try {
        fn(n);
      } catch {
        // A listener's failure (a closed dashboard connection) must not break the traced request.
      }
    }
  }
}

/** What the trace list is narrowed to: each given criterion must hold. */
export interface TraceFilter {
  service?: string;
  endpoint?: string;
  /** "ok", "error", or a status class such as "4xx". */
  status?: string;
  /** Text found (case-insensitively) in the path, names, message id, trace id or an error message. */
  q?: string;
}

function matches(s: TraceSummary, f: TraceFilter): boolean {
  if (f.service && s.service !== f.service) return false;
  if (f.endpoint && s.endpoint !== f.endpoint && s.subscription !== f.endpoint) return false;
  if (f.status === "ok" && s.isError) return false;
  if (f.status === "error" && !s.isError) return false;
  const cls = /^([1-5])xx$/.exec(f.status ?? "");
  if (cls && Math.floor((s.status ?? 0) / 100) !== Number(cls[1])) return false;
  if (f.q) {
    const hay = [s.traceId, s.service, s.endpoint, s.method, s.path, s.topic, s.subscription, s.messageId, s.status, s.errorMessage]
      .filter((x) => x !== undefined)
      .join(" ")
      .toLowerCase();
    if (!hay.includes(f.q.toLowerCase())) return false;
  }
  return true;
}

/** The trace's root span as a list row (the first span when the root was sampled out or evicted). */
export function summarize(t: TraceRecord, linked: TraceRecord[] = []): TraceSummary {
  const root = t.spans.find((s) => s.parentSpanId === undefined) ?? t.spans[0];
  return {
    traceId: t.traceId,
    spanId: root.spanId,
    parentTraceId: t.parentTraceId,
    kind: root.kind,
    service: root.service,
    endpoint: root.endpoint,
    topic: root.topic,
    subscription: root.subscription,
    messageId: root.messageId,
    method: root.method,
    path: root.path,
    status: root.responseStatus,
    start: root.start,
    durationMs: root.durationMs,
    isError: t.spans.some((s) => s.error !== undefined),
    errorMessage: t.spans.find((s) => s.error !== undefined)?.error?.message,
    spans: [t, ...linked].reduce((n, x) => n + x.spans.reduce((m, s) => m + 1 + s.events.length, 0), 0),
  };
}
