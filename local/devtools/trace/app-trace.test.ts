// The tracer inside the running app: one POST /shorten over HTTP yields Encore's spans and events
// (auth call, SQL, bucket upload, publish, the linked track-analytics delivery with its own SQL),
// a service call is a child span pointing at its RPC event, a rate limit's cache call is an event of
// its request, and failed requests carry their error.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read untyped */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainTopic, startTestServer, type TestServer } from "../../testing";
import { signUp } from "../../../url/__tests__/helpers";
import { tracer } from "./index";
import type { SpanRecord, TraceRecord } from "./model";

describe("traces of the running app", () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer();
    token = await signUp(server.baseUrl);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function post(
    path: string,
    body: unknown,
    authorization = `Bearer ${token}`,
  ): Promise<{ status: number; traceId: string; body: any }> {
    const res = await fetch(server.baseUrl + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(authorization ? { Authorization: authorization } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, traceId: res.headers.get("x-encore-trace-id") ?? "", body: await res.json() };
  }

  /** The trace once its root span has ended (the response's close event ends it). */
  async function finished(traceId: string): Promise<TraceRecord> {
    for (let i = 0; i < 100; i++) {
      const t = tracer.get(traceId);
      if (t && t.spans.every((s) => s.durationMs !== undefined)) return t;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`trace ${traceId} did not finish`);
  }

  const root = (t: TraceRecord): SpanRecord => t.spans.find((s) => s.parentSpanId === undefined)!;

  it("records POST /shorten with auth, SQL, bucket upload, publish and the linked delivery", async () => {
    const res = await post("/shorten", { url: "https://example.com/traced" });
    expect(res.status).toBe(200);
    expect(res.traceId).toMatch(/^[0-9a-v]{26}$/);
    await drainTopic("url-shortened");
    const trace = await finished(res.traceId);

    const req = root(trace);
    expect(req).toMatchObject({
      kind: "request",
      service: "url",
      endpoint: "shorten",
      method: "POST",
      path: "/shorten",
      responseStatus: 200,
    });
    expect(JSON.parse(req.requestPayload!)).toEqual({ url: "https://example.com/traced" });
    expect(JSON.parse(req.responsePayload!).code).toBe(res.body.code);
    expect(req.error).toBeUndefined();

    const auth = trace.spans.find((s) => s.kind === "auth")!;
    expect(auth).toMatchObject({ parentSpanId: req.spanId, service: "auth" });
    expect(auth.uid).toMatch(/^\d+$/);

    const insert = req.events.find((e) => e.kind === "db_query" && /INSERT INTO urls/.test(String(e.fields.query)))!;
    expect(insert).toMatchObject({ fields: { database: "url", rows: 1 } });
    expect(insert.durationMs).toBeGreaterThanOrEqual(0);
    const upload = req.events.find((e) => e.kind === "bucket_upload")!;
    expect(upload.fields).toMatchObject({ bucket: "qr-codes", object: `${res.body.code}.png`, contentType: "image/png" });
    expect(upload.fields.size).toBeGreaterThan(100);
    const publish = req.events.find((e) => e.kind === "pubsub_publish")!;
    expect(publish.fields).toMatchObject({ topic: "url-shortened" });
    expect(JSON.parse(String(publish.fields.message)).code).toBe(res.body.code);

    const [delivery] = tracer.linked(res.traceId);
    const span = delivery.spans[0];
    expect(span).toMatchObject({
      kind: "pubsub_message",
      service: "analytics",
      topic: "url-shortened",
      subscription: "track-analytics",
      messageId: publish.fields.messageId,
      attempt: 1,
      parentTraceId: res.traceId,
    });
    expect(span.durationMs).toBeGreaterThanOrEqual(0);
    // The delivery opened its batch, so the batch's one statement (record and increment) is in its span.
    const queries = span.events.filter((e) => e.kind === "db_query");
    expect(queries).toHaveLength(1);
    expect(queries[0].fields).toMatchObject({ database: "analytics" });
    expect(String(queries[0].fields.query)).toMatch(/INSERT INTO counted_urls[\s\S]*INSERT INTO daily_stats/);
  });

  it("records the cache call of a rate-limited sign-up: its operation, key, write and result", async () => {
    const res = await post("/auth/signup", { email: `${crypto.randomUUID()}@example.com`, password: "correct horse battery" }, "");
    expect(res.status).toBe(200);
    const call = root(await finished(res.traceId)).events.find((e) => e.kind === "cache_call")!;
    expect(call.fields).toMatchObject({ operation: "increment", write: true, result: "ok" });
    expect(call.fields.keys).toEqual([expect.stringMatching(/rate-limits\/auth\/signup\/.+\/\d+$/)]);
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    expect(call.error).toBeUndefined();
  });

  it("records a service call as a child span of the caller's RPC event", async () => {
    const res = await fetch(`${server.baseUrl}/analytics/summary`);
    expect(res.status).toBe(200);
    const trace = await finished(res.headers.get("x-encore-trace-id")!);
    const caller = root(trace);
    const call = caller.events.find((e) => e.kind === "rpc_call")!;
    expect(call.fields).toEqual({ service: "url", endpoint: "totals" });
    const callee = trace.spans.find((s) => s.callerEventId === call.id)!;
    expect(callee).toMatchObject({ kind: "request", service: "url", endpoint: "totals", parentSpanId: caller.spanId });
    expect(callee.events.some((e) => e.kind === "db_query" && e.fields.database === "url")).toBe(true);
  });

  it("records the error of a 400 on a bad URL and of a 401 on a bad token", async () => {
    const bad = await post("/shorten", { url: "ftp://example.com/x" });
    expect(bad.status).toBe(400);
    const badSpan = root(await finished(bad.traceId));
    expect(badSpan).toMatchObject({ responseStatus: 400, error: { code: "invalid_argument", message: bad.body.message } });
    expect(JSON.parse(badSpan.responsePayload!)).toMatchObject({ code: "invalid_argument" });

    const denied = await post("/shorten", { url: "https://example.com/" }, "Bearer not-a-token");
    expect(denied.status).toBe(401);
    const trace = await finished(denied.traceId);
    expect(root(trace)).toMatchObject({ responseStatus: 401, error: { code: "unauthenticated" } });
    expect(trace.spans.find((s) => s.kind === "auth")).toMatchObject({ error: { code: "unauthenticated" } });
  });
});
