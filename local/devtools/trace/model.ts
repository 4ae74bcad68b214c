// The trace records the local tracer keeps, shaped after Encore's trace model
// (proto/encore/engine/trace2/trace2.proto): spans (REQUEST, AUTH, PUBSUB_MESSAGE) holding events that
// each have a start and an end (log lines are instants). Times are epoch milliseconds with fractions.

import type { OperationKind, SpanFields, SpanKind } from "../../runtime/core/events";

export type { SpanKind };

/** An operation the runtime announces, or a log line (an instant). */
export type EventKind = OperationKind | "log";

/** Encore's trace2 Error: a message (the TS runtime records no stack). */
export interface TraceError {
  code?: string;
  message: string;
}

export interface TraceEvent {
  /** Unique within its trace, as Encore's event ids are; what a callee span's callerEventId names. */
  id: number;
  kind: EventKind;
  start: number;
  /** Absent while the operation runs (and for log lines, which are instants). */
  durationMs?: number;
  error?: TraceError;
  /** What the start and end messages carry: query text, target endpoint, topic, bucket/object, ... */
  fields: Record<string, unknown>;
}

export interface SpanRecord extends SpanFields {
  traceId: string;
  spanId: string;
  /** The span that made this one (the caller of a service call, the request an auth call belongs to). */
  parentSpanId?: string;
  /** For a Pub/Sub delivery: the publisher's trace, a separate trace as in Encore. */
  parentTraceId?: string;
  requestPayload?: string;
  responseStatus?: number;
  responseHeaders?: Record<string, unknown>;
  responsePayload?: string;
  /** AUTH: the user id and auth data the handler returned. */
  uid?: string;
  userData?: string;
  start: number;
  durationMs?: number;
  error?: TraceError;
  events: TraceEvent[];
  /** Events not kept once the span reached its event limit. */
  droppedEvents: number;
}

export interface TraceRecord {
  traceId: string;
  parentTraceId?: string;
  start: number;
  spans: SpanRecord[];
  /** Next event id in this trace. */
  nextEventId: number;
}

/** One row of the trace list: a trace's root span, like Encore's SpanSummary. */
export interface TraceSummary {
  traceId: string;
  spanId: string;
  parentTraceId?: string;
  kind: SpanKind;
  service: string;
  endpoint?: string;
  topic?: string;
  subscription?: string;
  messageId?: string;
  method?: string;
  path?: string;
  status?: number;
  start: number;
  durationMs?: number;
  isError: boolean;
  /** The first error's message, for the list's text filter. */
  errorMessage?: string;
  /** The rows of the trace's waterfall: its spans and their events, with the deliveries it caused. */
  spans: number;
}
