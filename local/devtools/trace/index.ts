// The process's tracer, listening to what the runtime announces (runtime/core/events.ts): a span for
// every request, auth call and Pub/Sub delivery, an event for every operation inside one. Importing
// this module starts listening (the dashboard and the tests that read traces do); until then, and
// with LOCAL_TRACE=0, nothing listens and the runtime builds nothing for tracing.
import http from "node:http";
import {
  channels,
  type LogAnnouncement,
  type OperationAnnouncement,
  type SpanAnnouncement,
  type SpanRecorder,
} from "../../runtime/core/events";
import type { Napi } from "../../model/napi";
import { type ActiveSpan, Tracer, optionsFromEnv } from "./tracer";

export { ActiveSpan, Tracer } from "./tracer";

/** The tracer of this process (configured by LOCAL_TRACE, LOCAL_TRACE_RING, LOCAL_TRACE_SAMPLE). */
export const tracer = new Tracer(optionsFromEnv());

/** What Encore redacts from traces of a `sensitive: true` endpoint. */
const REDACTED = "[sensitive]";

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

/** The recorded span a request handle (a native call's `source`) belongs to. */
function spanOf(source: Napi.Request | null | undefined): ActiveSpan | null {
  return source ? tracer.spanOf(source.meta().trace?.spanId) : null;
}

/** The request spans waiting for their HTTP answer to close, and whether their headers are shown. */
const httpSpans = new WeakMap<http.ServerResponse, { span: ActiveSpan; sensitive: boolean; ownAnswer: boolean }>();

/** Ends a request span when its HTTP answer closes, with the status and headers sent. */
export function bindHttpSpan(res: http.ServerResponse, span: ActiveSpan, sensitive: boolean, ownAnswer: boolean): void {
  httpSpans.set(res, { span, sensitive, ownAnswer });
  // One module function for every answer, not a closure each: 'close' comes once per response.
  res.on("close", endHttpSpan);
}

function endHttpSpan(this: http.ServerResponse): void {
  const bound = httpSpans.get(this);
  if (bound === undefined) return;
  httpSpans.delete(this);
  const { span, sensitive, ownAnswer } = bound;
  const status = this.statusCode;
  const aborted = !this.writableFinished;
  // Raw and static endpoints write their own answer, so Encore judges it by its status alone.
  const error = ownAnswer ? rawAnswerError(status) : span.record.error;
  span.end(
    { responseStatus: status, responseHeaders: sensitive ? undefined : this.getHeaders() },
    error ?? (aborted ? { message: "the client closed the connection before the response was sent" } : undefined),
  );
}

/** What the runtime reports about a recorded span: methods on one object, not four closures per span. */
class SpanReport implements SpanRecorder {
  constructor(
    private readonly span: ActiveSpan,
    private readonly sensitive: boolean,
  ) {}

  /** A payload as the trace shows it: redacted for a sensitive endpoint. */
  shown(payload: unknown): string | undefined {
    return this.sensitive ? REDACTED : this.span.text(payload);
  }

  requestPayload(payload: unknown): void {
    this.span.record.requestPayload = this.shown(payload);
  }

  responsePayload(payload: unknown): void {
    this.span.record.responsePayload = this.shown(payload);
  }

  error(error: { code: string; message: string }): void {
    this.span.record.error = { code: error.code, message: error.message };
  }

  end(error?: unknown, auth?: { uid?: string; userData: unknown }): void {
    this.span.end(auth && { uid: auth.uid, userData: this.span.text(auth.userData) }, error);
  }
}

/** Starts recording an announced span; null when it is not recorded (sampled out, or its parent is not). */
function startSpan(a: SpanAnnouncement): SpanRecorder | null {
  const sensitive = a.sensitive === true;
  const span = tracer.start(a.ids, {
    kind: a.kind,
    service: a.service,
    endpoint: a.endpoint,
    method: a.method,
    path: a.path,
    pathParams: a.pathParams,
    requestHeaders: sensitive ? undefined : a.requestHeaders,
    callerEventId: a.callerEventId,
    topic: a.topic,
    subscription: a.subscription,
    messageId: a.messageId,
    attempt: a.attempt,
    publishedAt: a.publishedAt,
  });
  if (span === null) return null;
  const report = new SpanReport(span, sensitive);
  if (a.payload !== undefined) report.requestPayload(a.payload);
  if (a.http) bindHttpSpan(a.http.res, span, sensitive, a.http.ownAnswer);
  return report;
}

/** Begins an announced operation's event in its request's span, when that span is recorded. */
function beginOperation(a: OperationAnnouncement): void {
  const span = spanOf(a.source);
  const ev = span?.begin(a.kind, a.fields) ?? null;
  if (span && ev) a.recorder = { id: ev.id, finish: (fields, error) => span.finish(ev, fields, error) };
}

/** Records a log line in the span of the request that logged it. */
function log(a: LogAnnouncement): void {
  spanOf(a.source)?.log({ level: a.level, msg: a.msg, fields: a.fields, error: a.error });
}

if (tracer.options.enabled) {
  channels.span.subscribe((m) => {
    const a = m as SpanAnnouncement;
    a.recorder = startSpan(a) ?? undefined;
  });
  for (const channel of [channels.call, channels.query, channels.publish, channels.bucket, channels.cache]) {
    channel.subscribe((m) => beginOperation(m as OperationAnnouncement));
  }
  channels.log.subscribe((m) => log(m as LogAnnouncement));
}
