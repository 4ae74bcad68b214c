// The one door from the runtime into the tracer: the process's tracer and the small hooks the HTTP
// server, service calls, the auth gateway, SQL, Pub/Sub, buckets, caches and the logger call.
// Each hook does nothing (beyond one map lookup) when the request it is given is not being traced.
import http from "node:http";
import type { Napi } from "../model/napi";
import type { EndpointModel } from "../model/app-model";
import type { EventKind, SpanKind } from "./model";
import { type ActiveSpan, type SpanIds, Tracer, optionsFromEnv } from "./tracer";

export { ActiveSpan, Tracer } from "./tracer";

/** The tracer of this process (configured by LOCAL_TRACE, LOCAL_TRACE_RING, LOCAL_TRACE_SAMPLE). */
export const tracer = new Tracer(optionsFromEnv());

/** The recorded span a request handle (a native call's `source`) belongs to. */
export function spanOf(source: Napi.Request | null | undefined): ActiveSpan | null {
  return source ? tracer.spanOf(source.meta().trace?.spanId) : null;
}

/** What Encore redacts from traces of a `sensitive: true` endpoint. */
const REDACTED = "[sensitive]";

/** Starts the span of a request to an endpoint (over HTTP, or a service call with its caller's event). */
export function startEndpointSpan(
  ids: SpanIds,
  ep: EndpointModel,
  call: { method: string; path: string; pathParams: Record<string, string>; headers?: Record<string, unknown>; callerEventId?: number },
): ActiveSpan | null {
  return tracer.start(ids, {
    kind: "request",
    service: ep.service,
    endpoint: ep.name,
    method: call.method,
    path: call.path,
    pathParams: call.pathParams,
    requestHeaders: ep.sensitive ? undefined : call.headers,
    callerEventId: call.callerEventId,
  });
}

/** Records a decoded request payload (redacted for sensitive endpoints). */
export function recordRequestPayload(span: ActiveSpan | null, ep: EndpointModel, payload: unknown): void {
  if (span) span.record.requestPayload = ep.sensitive ? REDACTED : span.text(payload);
}

/** Records the response a service call returned (redacted for sensitive endpoints). */
export function recordResponsePayload(span: ActiveSpan | null, ep: EndpointModel, payload: unknown): void {
  if (span) span.record.responsePayload = ep.sensitive ? REDACTED : span.text(payload);
}

const httpSpans = new WeakMap<http.ServerResponse, { span: ActiveSpan; sensitive: boolean }>();

/** ErrCode::from(StatusCode) in runtimes/core/src/api/error.rs. */
const CODE_BY_STATUS: Record<number, string> = {
  400: "invalid_argument",
  401: "unauthenticated",
  403: "permission_denied",
  404: "not_found",
  409: "already_exists",
  429: "resource_exhausted",
  499: "canceled",
  500: "internal",
  501: "unimplemented",
  503: "unavailable",
  504: "deadline_exceeded",
};

/**
 * The error Encore records for a raw or static endpoint's answer (Error::from_raw_status, since 1.57.9):
 * any status of 400 or more, thrown or written, becomes the status's code and reason phrase.
 */
export function rawAnswerError(status: number): { code: string; message: string } | undefined {
  if (status < 400) return undefined;
  return { code: CODE_BY_STATUS[status] ?? "unknown", message: http.STATUS_CODES[status] ?? `HTTP ${status}` };
}

/** Ties a request span to its HTTP response: the span ends when the response does, with its status and headers. */
export function bindHttpSpan(res: http.ServerResponse, span: ActiveSpan | null, ep: EndpointModel): void {
  if (span === null) return;
  httpSpans.set(res, { span, sensitive: ep.sensitive });
  // Raw and static endpoints write their own answer, so Encore judges it by its status alone.
  const writesOwnAnswer = ep.raw || ep.staticAssets !== null;
  res.once("close", () => {
    const status = res.statusCode;
    const aborted = !res.writableFinished;
    const error = writesOwnAnswer ? rawAnswerError(status) : span.record.error;
    span.end(
      { responseStatus: status, responseHeaders: ep.sensitive ? undefined : res.getHeaders() },
      error ?? (aborted ? { message: "the client closed the connection before the response was sent" } : undefined),
    );
  });
}

/** Records the JSON text of the body sent on an HTTP response, if a span is bound to it. */
export function recordHttpBody(res: http.ServerResponse, body: string): void {
  const bound = httpSpans.get(res);
  if (bound) bound.span.record.responsePayload = bound.sensitive ? REDACTED : bound.span.text(body);
}

/** Records the error an HTTP request failed with, if a span is bound to its response. */
export function recordHttpError(res: http.ServerResponse, error: { code: string; message: string }): void {
  const bound = httpSpans.get(res);
  if (bound) bound.span.record.error = { code: error.code, message: error.message };
}

/** Starts a span for a handler invocation described by its request metadata (auth call, Pub/Sub delivery). */
export function startSpanFor(
  req: Napi.Request,
  kind: SpanKind,
  init: { service: string; endpoint?: string; payload?: unknown },
): ActiveSpan | null {
  const meta = req.meta();
  const trace = meta.trace;
  if (!trace) return null;
  const msg = meta.pubsubMessage;
  const span = tracer.start(trace, {
    kind,
    service: init.service,
    endpoint: init.endpoint,
    topic: msg?.topic,
    subscription: msg?.subscription,
    messageId: msg?.id,
    attempt: msg?.deliveryAttempt,
    publishedAt: msg?.publishedAt,
  });
  if (span) span.record.requestPayload = span.text(init.payload);
  return span;
}

/**
 * Runs one traced operation of a request (a query, a publish, a bucket or cache call): an event with a
 * start and an end in the request's span. `outcome` reads the end fields and any error from the result
 * (bucket calls resolve to their errors rather than reject).
 */
export async function traced<T>(
  source: Napi.Request | null | undefined,
  kind: EventKind,
  fields: Record<string, unknown>,
  fn: () => Promise<T>,
  outcome?: (result: T) => { fields?: Record<string, unknown>; error?: unknown },
): Promise<T> {
  const span = spanOf(source);
  if (span === null) return fn();
  const ev = span.begin(kind, fields);
  let result: T;
  try {
    result = await fn();
  } catch (e) {
    span.finish(ev, null, e);
    throw e;
  }
  const o = outcome?.(result);
  span.finish(ev, o?.fields, o?.error);
  return result;
}

/** Records a log line in the span of the request that logged it. */
export function traceLog(
  source: Napi.Request | null | undefined,
  level: string,
  msg: string,
  fields: Record<string, unknown>,
  error?: Error,
): void {
  const span = spanOf(source);
  if (span !== null) span.log({ level, msg, fields, error: error?.message });
}
