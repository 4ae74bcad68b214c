// The tracer on its own: spans, events, the ring bound, sampling, child spans of sampled-out roots, and
// how an HTTP answer ends its span.
import { EventEmitter } from "node:events";
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { bindHttpSpan } from "./index";
import { Tracer, optionsFromEnv, payloadText, type TracerOptions } from "./tracer";

function tracer(over: Partial<TracerOptions> = {}): Tracer {
  return new Tracer({ ...optionsFromEnv({}), ...over });
}

const ids = (traceId: string, spanId: string, parentSpanId?: string) => ({ traceId, spanId, parentSpanId });

describe("Tracer", () => {
  it("records a span with its events, ends them with fields and errors, and lists the trace", () => {
    const t = tracer();
    const span = t.start(ids("t1", "s1"), { kind: "request", service: "url", endpoint: "shorten" })!;
    const q = span.begin("db_query", { database: "url", query: "SELECT 1" });
    span.finish(q, { rows: 1 });
    const bad = span.begin("db_query", { database: "url", query: "SELEC" });
    span.finish(bad, null, Object.assign(new Error("syntax error"), { code: "42601" }));
    span.log({ level: "INF", msg: "hello" });
    span.end({ responseStatus: 200 });

    const trace = t.get("t1")!;
    expect(trace.spans).toHaveLength(1);
    const [rec] = trace.spans;
    expect(rec.durationMs).toBeGreaterThanOrEqual(0);
    expect(rec.events.map((e) => [e.id, e.kind, e.fields.query])).toEqual([
      [1, "db_query", "SELECT 1"],
      [2, "db_query", "SELEC"],
      [3, "log", undefined],
    ]);
    expect(rec.events[0].fields.rows).toBe(1);
    expect(rec.events[1].error).toEqual({ code: "42601", message: "syntax error" });
    // `spans` counts the waterfall's rows: the span and its three events.
    expect(t.list()).toMatchObject([{ traceId: "t1", service: "url", endpoint: "shorten", status: 200, isError: false, spans: 4 }]);
    t.start(ids("t2", "s2"), { kind: "request", service: "url" })!.end(
      { responseStatus: 400 },
      { code: "invalid_argument", message: "bad url" },
    );
    expect(t.list()[0]).toMatchObject({ traceId: "t2", isError: true, status: 400 });
    expect(t.get("t2")!.spans[0].error).toEqual({ code: "invalid_argument", message: "bad url" });
  });

  it("counts a delivery's span and events in the row of the trace that published it", () => {
    const t = tracer();
    const req = t.start(ids("p", "s1"), { kind: "request", service: "url", endpoint: "shorten" })!;
    req.finish(req.begin("pubsub_publish", { topic: "url-shortened", messageId: "m1" }));
    req.end({ responseStatus: 200 });
    expect(t.list()[0]).toMatchObject({ traceId: "p", spans: 2 });
    const delivery = t.start({ traceId: "d", spanId: "s2", parentTraceId: "p" }, { kind: "pubsub_message", service: "analytics" })!;
    delivery.finish(delivery.begin("db_query", { database: "analytics", query: "INSERT" }));
    delivery.end();
    expect(t.list().find((x) => x.traceId === "p")).toMatchObject({ spans: 4 });
    expect(t.list().find((x) => x.traceId === "d")).toMatchObject({ spans: 2 });
  });

  it("filters the list by service, endpoint, status class, outcome and text", () => {
    const t = tracer();
    t.start(ids("a", "s1"), { kind: "request", service: "url", endpoint: "stats", method: "GET", path: "/abc/stats" })!.end({
      responseStatus: 200,
    });
    t.start(ids("b", "s2"), { kind: "request", service: "url", endpoint: "stats", method: "GET", path: "/nope/stats" })!.end(
      { responseStatus: 404 },
      { code: "not_found", message: "URL not found" },
    );
    t.start(ids("c", "s3"), { kind: "request", service: "auth", endpoint: "me", method: "GET", path: "/auth/me" })!.end({
      responseStatus: 200,
    });
    const ids_ = (f: Parameters<Tracer["list"]>[1]) => t.list(100, f).map((s) => s.traceId);
    expect(ids_({ service: "url" })).toEqual(["b", "a"]);
    expect(ids_({ service: "url", endpoint: "me" })).toEqual([]);
    expect(ids_({ endpoint: "me" })).toEqual(["c"]);
    expect(ids_({ status: "4xx" })).toEqual(["b"]);
    expect(ids_({ status: "error" })).toEqual(["b"]);
    expect(ids_({ status: "ok" })).toEqual(["c", "a"]);
    expect(ids_({ q: "ABC" })).toEqual(["a"]);
    expect(ids_({ q: "url not found" })).toEqual(["b"]);
  });

  it("restores an earlier run's traces behind this run's, within the ring's capacity", () => {
    const earlier = tracer();
    for (const id of ["e1", "e2", "e3"]) earlier.start(ids(id, `s-${id}`), { kind: "request", service: "x" })!.end();
    const t = tracer({ capacity: 3 });
    t.start(ids("now", "s-now"), { kind: "request", service: "x" })!.end();
    t.restore(["e1", "e2", "e3"].map((id) => earlier.get(id)!));
    expect(t.list().map((s) => s.traceId)).toEqual(["now", "e3", "e2"]);
  });

  it("keeps only the last N traces", () => {
    const t = tracer({ capacity: 3 });
    for (let i = 0; i < 5; i++) t.start(ids(`t${i}`, `s${i}`), { kind: "request", service: "x" })!.end();
    expect(t.list().map((s) => s.traceId)).toEqual(["t4", "t3", "t2"]);
    expect(t.get("t0")).toBeNull();
  });

  it("caps the events of one span and counts the ones dropped", () => {
    const t = tracer({ maxEventsPerSpan: 2 });
    const span = t.start(ids("t", "s"), { kind: "request", service: "x" })!;
    for (let i = 0; i < 5; i++) span.log({ msg: String(i) });
    expect(span.record.events).toHaveLength(2);
    expect(span.record.droppedEvents).toBe(3);
  });

  it("records a child span only while its parent is recorded, in the parent's trace", () => {
    const t = tracer();
    const parent = t.start(ids("t", "p"), { kind: "request", service: "analytics" })!;
    const call = parent.begin("rpc_call", { service: "url", endpoint: "totals" })!;
    const child = t.start(ids("t", "c", "p"), { kind: "request", service: "url", callerEventId: call.id })!;
    child.end();
    parent.end();
    expect(t.get("t")!.spans.map((s) => [s.spanId, s.parentSpanId, s.callerEventId])).toEqual([
      ["p", undefined, undefined],
      ["c", "p", 1],
    ]);
    expect(t.start(ids("t", "late", "p"), { kind: "request", service: "url" })).toBeNull();
  });

  it("samples root spans at the configured rate and records nothing when disabled", () => {
    const none = tracer({ sampleRate: 0 });
    expect(none.start(ids("t", "s"), { kind: "request", service: "x" })).toBeNull();
    expect(none.list()).toEqual([]);
    const off = tracer({ enabled: false });
    expect(off.start(ids("t", "s"), { kind: "request", service: "x" })).toBeNull();
  });

  it("reports the root trace a piece of work started, and notifies listeners of span starts and ends", async () => {
    const t = tracer();
    const seen: string[] = [];
    const stop = t.listen((n) => seen.push(`${n.type}:${n.span.spanId}`));
    const { traceId, result } = await t.capture(async () => {
      await new Promise((r) => setImmediate(r));
      t.start(ids("job", "s"), { kind: "request", service: "url" })!.end();
      return 7;
    });
    stop();
    expect(traceId).toBe("job");
    expect(result).toEqual({ status: "fulfilled", value: 7 });
    expect(seen).toEqual(["span-start:s", "span-end:s"]);
  });
});

describe("tracer options and payloads", () => {
  it("reads LOCAL_TRACE, LOCAL_TRACE_RING and LOCAL_TRACE_SAMPLE, rejecting nonsense", () => {
    expect(optionsFromEnv({})).toMatchObject({ enabled: true, capacity: 200, sampleRate: 1 });
    expect(optionsFromEnv({ LOCAL_TRACE: "0", LOCAL_TRACE_RING: "5", LOCAL_TRACE_SAMPLE: "0.5" })).toMatchObject({
      enabled: false,
      capacity: 5,
      sampleRate: 0.5,
    });
    expect(() => optionsFromEnv({ LOCAL_TRACE_RING: "-1" })).toThrow("LOCAL_TRACE_RING=-1 is not valid");
    expect(() => optionsFromEnv({ LOCAL_TRACE_SAMPLE: "2" })).toThrow("from 0 to 1");
  });

  it("keeps payloads as JSON text, cut at the limit, and buffers as their size", () => {
    expect(payloadText({ a: 1 }, 100)).toBe('{"a":1}');
    expect(payloadText("x".repeat(10), 4)).toBe("xxxx… (10 characters, cut)");
    expect(payloadText(Buffer.alloc(3), 100)).toBe("<3 bytes>");
    expect(payloadText(undefined, 100)).toBeUndefined();
  });
});

describe("the span of a raw or static endpoint", () => {
  /** A response that closes with `status`, as the HTTP server's would. */
  function closedResponse(status: number): http.ServerResponse {
    return Object.assign(new EventEmitter(), { statusCode: status, writableFinished: true, getHeaders: () => ({}) }) as never;
  }

  // Since 1.57.9 Encore judges a raw endpoint's answer by its status (runtimes/core/src/api/error.rs, from_raw_status).
  it.each([
    [404, { code: "not_found", message: "Not Found" }],
    [503, { code: "unavailable", message: "Service Unavailable" }],
    // Reason phrases are Node's (the http crate writes "I'm a teapot").
    [418, { code: "unknown", message: "I'm a Teapot" }],
    [302, undefined],
  ])("records status %i as the error %j, whether or not the handler threw", (status, error) => {
    const t = tracer();
    const span = t.start(ids(`raw${status}`, "s1"), { kind: "request", service: "url", endpoint: "resolve" })!;
    const res = closedResponse(status);
    bindHttpSpan(res, span, false, true);
    res.emit("close");
    expect(t.get(`raw${status}`)!.spans[0].error).toEqual(error);
  });

  it("keeps a typed endpoint's thrown error as it was", () => {
    const t = tracer();
    const span = t.start(ids("typed", "s1"), { kind: "request", service: "url", endpoint: "stats" })!;
    const res = closedResponse(404);
    bindHttpSpan(res, span, false, false);
    span.record.error = { code: "not_found", message: "URL not found" };
    res.emit("close");
    expect(t.get("typed")!.spans[0].error).toEqual({ code: "not_found", message: "URL not found" });
  });
});
