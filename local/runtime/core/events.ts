// What the runtime announces on node:diagnostics_channel, for whoever listens (the tracer behind the
// dashboard): the spans of requests, auth calls and Pub/Sub deliveries, and the operations inside them
// (service calls, queries and transactions, publishes, bucket and cache calls, log lines). A listener
// answers an announcement by attaching a recorder. With no listener nothing is built: a request pays
// one `hasSubscribers` check per announcement.
import dc from "node:diagnostics_channel";
import type http from "node:http";
import type { Napi } from "../../model/napi";

/** The runtime's channels, by what they announce. */
export const channels = {
  /** SpanAnnouncement: a request, auth call or Pub/Sub delivery begins. */
  span: dc.channel("encore-local:span"),
  /** OperationAnnouncement of a service call (rpc_call) in the caller's span. */
  call: dc.channel("encore-local:call"),
  /** OperationAnnouncement of a query (db_query) or transaction (db_transaction). */
  query: dc.channel("encore-local:query"),
  /** OperationAnnouncement of a publish (pubsub_publish). */
  publish: dc.channel("encore-local:publish"),
  /** OperationAnnouncement of a bucket call (bucket_*). */
  bucket: dc.channel("encore-local:bucket"),
  /** OperationAnnouncement of a cache call (cache_call). */
  cache: dc.channel("encore-local:cache"),
  /** LogAnnouncement: a log line of a request. */
  log: dc.channel("encore-local:log"),
};

export type SpanKind = "request" | "auth" | "pubsub_message";

export type OperationKind =
  | "rpc_call"
  | "db_query"
  | "db_transaction"
  | "pubsub_publish"
  | "bucket_upload"
  | "bucket_download"
  | "bucket_get_attrs"
  | "bucket_list"
  | "bucket_delete"
  | "cache_call";

/** The ids a span gets from the request it belongs to (Encore's TraceData). */
export interface SpanIds {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  parentTraceId?: string;
}

/** What a span is about, as Encore's trace model names it (a request's endpoint, a delivery's message). */
export interface SpanFields {
  kind: SpanKind;
  /** The event in the parent span that caused this span (RPCCallStart). */
  callerEventId?: number;
  service: string;
  endpoint?: string;
  method?: string;
  path?: string;
  pathParams?: Record<string, string>;
  requestHeaders?: Record<string, unknown>;
  topic?: string;
  subscription?: string;
  messageId?: string;
  attempt?: number;
  publishedAt?: string;
}

/** A span beginning; a listener that records it sets `recorder`. */
export interface SpanAnnouncement extends SpanFields {
  ids: SpanIds;
  /** Payloads and headers are not to be recorded (a `sensitive: true` endpoint). */
  sensitive?: boolean;
  /** What the handler was called with (auth parameters, a delivered message). */
  payload?: unknown;
  /** The HTTP answer that ends a request span when it closes; `ownAnswer` for raw and static endpoints, judged by status alone. */
  http?: { res: http.ServerResponse; ownAnswer: boolean };
  recorder?: SpanRecorder;
}

/** How the runtime reports the rest of an announced span. */
export interface SpanRecorder {
  requestPayload(payload: unknown): void;
  /** The response: a value, or for an HTTP answer the JSON text sent. */
  responsePayload(payload: unknown): void;
  /** The error an HTTP answer carries (its span ends when the answer closes). */
  error(error: { code: string; message: string }): void;
  /** Ends the span, failed with `error` if given; an auth span's user id and data. */
  end(error?: unknown, auth?: { uid?: string; userData: unknown }): void;
}

/** An operation of a request beginning; a listener that records it sets `recorder`. */
export interface OperationAnnouncement {
  source: Napi.Request | null | undefined;
  kind: OperationKind;
  fields: Record<string, unknown>;
  recorder?: OperationRecorder;
}

/** How the runtime reports an announced operation's end. */
export interface OperationRecorder {
  /** Unique within the trace: what a transaction's queries and a callee's span point at. */
  id: number;
  finish(fields?: Record<string, unknown> | null, error?: unknown): void;
}

export interface LogAnnouncement {
  source: Napi.Request | null | undefined;
  level: string;
  msg: string;
  fields: Record<string, unknown>;
  error?: string;
}

/** Announces a span to a listening channel.span; the recorder its listener attached, or null. */
export function announceSpan(span: SpanAnnouncement): SpanRecorder | null {
  channels.span.publish(span);
  return span.recorder ?? null;
}

/** Announces the span of a handler run for `req` (an auth call, a Pub/Sub delivery), with the ids and message its metadata holds. */
export function announceHandlerSpan(
  req: Napi.Request,
  kind: SpanKind,
  init: { service: string; endpoint?: string; payload: unknown },
): SpanRecorder | null {
  const meta = req.meta();
  if (!meta.trace) return null;
  const msg = meta.pubsubMessage;
  return announceSpan({
    kind,
    ids: meta.trace,
    ...init,
    topic: msg?.topic,
    subscription: msg?.subscription,
    messageId: msg?.id,
    attempt: msg?.deliveryAttempt,
    publishedAt: msg?.publishedAt,
  });
}

/** Announces an operation on `channel`; the recorder a listener attached, or null when no one records it. */
export function announceOperation(
  channel: dc.Channel,
  source: Napi.Request | null | undefined,
  kind: OperationKind,
  fields: Record<string, unknown>,
): OperationRecorder | null {
  if (!channel.hasSubscribers || !source) return null;
  const op: OperationAnnouncement = { source, kind, fields };
  channel.publish(op);
  return op.recorder ?? null;
}

/**
 * Runs one operation of a request (a query, a publish, a bucket or cache call), announced on `channel`
 * when someone listens. `outcome` reads the end fields and any error from the result (bucket calls
 * resolve to their errors rather than reject). Without a listener, `fn()` alone.
 */
export function announced<T>(
  channel: dc.Channel,
  source: Napi.Request | null | undefined,
  kind: OperationKind,
  fields: () => Record<string, unknown>,
  fn: () => Promise<T>,
  outcome?: (result: T) => { fields?: Record<string, unknown>; error?: unknown },
): Promise<T> {
  if (!channel.hasSubscribers) return fn();
  const recorder = announceOperation(channel, source, kind, fields());
  return recorder === null ? fn() : recorded(recorder, fn, outcome);
}

async function recorded<T>(
  recorder: OperationRecorder,
  fn: () => Promise<T>,
  outcome?: (result: T) => { fields?: Record<string, unknown>; error?: unknown },
): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (e) {
    recorder.finish(null, e);
    throw e;
  }
  const o = outcome?.(result);
  recorder.finish(o?.fields, o?.error);
  return result;
}
