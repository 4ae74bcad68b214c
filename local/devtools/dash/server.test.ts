// The dashboard's JSON API and live stream against the running app: traces appear within a second,
// the explorer calls through the gateway, the catalog and flow come from the app model, cron runs
// are traced, click batches are shown with their outcome, and only loopback JSON requests are accepted.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read untyped */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainTopic, startTestServer, type TestServer } from "../../testing";
import { holdCleanupTurnForThisFile, signUp } from "../../../url/__tests__/helpers";
import { startDashboard, type Dashboard } from "./server";
import { appRoot } from "../../model/layout.mjs";
import { loadAppModel } from "../../compiler/cache";
import { OutputCapture } from "./output";

/** fetch() may not set Host; a DNS-rebinding page would send its own name there. */
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Host: host } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
      .on("error", reject);
  });
}

describe("dashboard API", () => {
  holdCleanupTurnForThisFile();
  let app: TestServer;
  let dash: Dashboard;
  let token: string;
  const output = new OutputCapture();
  beforeAll(async () => {
    app = await startTestServer();
    dash = await startDashboard(0, output);
    token = await signUp(app.baseUrl);
  });
  afterAll(async () => {
    await dash?.close();
    await app?.close();
  });

  const get = async (path: string) => {
    const res = await fetch(dash.url + path);
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(dash.url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  /** Reads the live stream until `until` accepts a trace summary; afterMs counts from the end of `action`. */
  async function streamUntil(until: (summary: any) => boolean, action: () => Promise<unknown>): Promise<{ summary: any; afterMs: number }> {
    const ctrl = new AbortController();
    const res = await fetch(`${dash.url}/api/stream`, { signal: ctrl.signal });
    const reader = res.body!.getReader();
    await action();
    const started = performance.now();
    let buf = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buf += new TextDecoder().decode(value);
        for (const m of buf.matchAll(/event: trace\ndata: (.*)\n\n/g)) {
          const summary = JSON.parse(m[1]);
          if (until(summary)) return { summary, afterMs: performance.now() - started };
        }
      }
    } finally {
      ctrl.abort();
    }
  }

  it("streams a POST /shorten's trace within a second and serves it with its linked delivery", async () => {
    let traceId = "";
    const { summary, afterMs } = await streamUntil(
      (s) => s.traceId === traceId && s.durationMs !== undefined,
      async () => {
        const res = await fetch(`${app.baseUrl}/shorten`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: JSON.stringify({ url: "https://example.com/dash" }),
        });
        expect(res.status).toBe(200);
        traceId = res.headers.get("x-encore-trace-id")!;
      },
    );
    expect(afterMs).toBeLessThan(1000);
    expect(summary).toMatchObject({ service: "url", endpoint: "shorten", status: 200, isError: false });

    await drainTopic("url-shortened");
    const list = await get("/api/traces");
    expect(list.body.some((t: any) => t.traceId === traceId)).toBe(true);
    const { body } = await get(`/api/traces/${traceId}`);
    expect(body.trace.spans[0].events.some((e: any) => /INSERT INTO urls/.test(e.fields.query ?? ""))).toBe(true);
    expect(body.linked[0].spans[0]).toMatchObject({ kind: "pubsub_message", subscription: "track-analytics" });
    expect((await get("/api/traces/0123456789abcdef0123456789abcdef")).status).toBe(404);
  });

  it("calls an endpoint through the gateway for the explorer and returns its trace id", async () => {
    const ok = await post("/api/call", { method: "POST", path: "/shorten", body: JSON.stringify({ url: "https://example.com/e" }), token });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe(200);
    expect(JSON.parse(ok.body.body).code).toMatch(/^[0-9a-z]{6}$/);
    expect(ok.body.traceId).toMatch(/^[0-9a-v]{26}$/);

    const bad = await post("/api/call", { method: "POST", path: "/shorten", body: JSON.stringify({ url: "nope" }), token });
    expect(bad.body.status).toBe(400);
    const trace = (await get(`/api/traces/${bad.body.traceId}`)).body.trace;
    expect(trace.spans[0].error).toMatchObject({ code: "invalid_argument" });

    expect((await post("/api/call", { method: "BREW", path: "/x" })).body).toEqual({
      error: "method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
    });
  });

  it("lists every service and endpoint with method, path, auth flag, doc and fields", async () => {
    const { body } = await get("/api/catalog");
    expect(body.services.map((s: any) => s.name).sort()).toEqual(["analytics", "auth", "url", "web", "webhooks"]);
    const all = body.services.flatMap((s: any) => s.endpoints);
    expect(all).toHaveLength(loadAppModel(appRoot).endpoints.length);
    const shorten = all.find((e: any) => e.id === "url.shorten");
    expect(shorten).toMatchObject({
      methods: ["POST"],
      path: "/shorten",
      auth: true,
      expose: true,
      doc: expect.stringContaining("shorten stores"),
    });
    expect(shorten.request.fields.map((f: any) => f.name)).toEqual([
      "url",
      "alias",
      "expiresAt",
      "password",
      "maxClicks",
      "tags",
      "utm",
      "iosUrl",
      "androidUrl",
      "workspaceId",
    ]);
    expect(shorten.response.fields.map((f: any) => f.name)).toEqual(["code", "shortUrl", "qrCodeUrl", "originalUrl", "expiresAt"]);
    expect(all.find((e: any) => e.id === "web.assets")).toMatchObject({ methods: ["GET", "HEAD"], path: "/ui/*path", auth: false });
    expect(all.find((e: any) => e.id === "url.resolve")).toMatchObject({ methods: ["GET", "HEAD"], path: "/:code", auth: false });
  });

  it("draws url publishing to url-shortened, analytics subscribing, and analytics calling url", async () => {
    const { body } = await get("/api/flow");
    expect(body.edges).toEqual(
      expect.arrayContaining([
        { from: "service:url", to: "topic:url-shortened", kind: "publish", dashed: true, label: "publish" },
        { from: "topic:url-shortened", to: "service:analytics", kind: "subscribe", dashed: true, label: "track-analytics" },
        { from: "service:analytics", to: "service:url", kind: "call", dashed: false, label: "totals" },
        { from: "cron:cleanup-stale-urls", to: "service:url", kind: "cron", dashed: false, label: "cleanupStaleUrls" },
        { from: "service:url", to: "bucket:qr-codes", kind: "bucket", dashed: false },
      ]),
    );
    expect(body.nodes.map((n: any) => n.id)).toEqual(expect.arrayContaining(["database:url", "database:analytics", "database:auth"]));
  });

  it("runs a cron job now and returns the trace of the run", async () => {
    const run = await post("/api/cron/cleanup-stale-urls/run", {});
    expect(run.body).toMatchObject({ ok: true, traceId: expect.stringMatching(/^[0-9a-v]{26}$/) });
    const trace = (await get(`/api/traces/${run.body.traceId}`)).body.trace;
    expect(trace.spans[0]).toMatchObject({ service: "url", endpoint: "cleanupStaleUrls" });
    expect(trace.spans[0].events.some((e: any) => e.kind === "db_query")).toBe(true);
    expect((await post("/api/cron/nope/run", {})).status).toBe(404);
  });

  it("shows migration status, bucket objects and subscription queues", async () => {
    const dbs = (await get("/api/migrations")).body;
    expect(dbs.map((d: any) => d.database).sort()).toEqual(["analytics", "auth", "url", "webhooks"]);
    for (const d of dbs) expect(d.migrations.every((m: any) => m.applied)).toBe(true);

    const objects = (await get("/api/buckets/qr-codes/objects")).body;
    expect(objects.length).toBeGreaterThan(0);
    expect(objects[0]).toMatchObject({ contentType: "image/png" });
    const png = await fetch(`${dash.url}/api/buckets/qr-codes/objects/${objects[0].name}`);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect((await png.arrayBuffer()).byteLength).toBe(objects[0].size);

    await drainTopic("url-shortened");
    expect((await get("/api/pubsub")).body).toContainEqual({
      name: "url-shortened",
      publishers: ["url"],
      subscriptions: [expect.objectContaining({ subscription: "track-analytics", subscribed: true, queued: 0, inFlight: 0, retrying: 0 })],
    });
  });

  it("shows the click batches, each committed with its size, and each batch's SQL in the trace of the click that opened it", async () => {
    const shortened = await post("/api/call", {
      method: "POST",
      path: "/shorten",
      body: JSON.stringify({ url: "https://example.com/b" }),
      token,
    });
    const code = JSON.parse(shortened.body.body).code;
    const before = ((await get("/api/batches")).body.find((q: any) => q.name === "clicks")?.recent[0]?.batch ?? 0) as number;
    const visits = await Promise.all(Array.from({ length: 8 }, () => fetch(`${app.baseUrl}/${code}`)));
    expect(visits.map((v) => v.status)).toEqual(Array(8).fill(200));

    const clicks = (await get("/api/batches")).body.find((q: any) => q.name === "clicks");
    expect(clicks).toMatchObject({ queued: 0, inFlight: null });
    const mine = clicks.recent.filter((b: any) => b.batch > before);
    expect(mine.every((b: any) => b.state === "committed" && b.durationMs >= 0 && b.error === undefined)).toBe(true);
    expect(mine.reduce((n: number, b: any) => n + b.size, 0)).toBe(8);

    const traces = await Promise.all(visits.map(async (v) => (await get(`/api/traces/${v.headers.get("x-encore-trace-id")}`)).body.trace));
    const statements = traces.map(
      (t) => t.spans[0].events.filter((e: any) => /SELECT \* FROM count_clicks\(/.test(e.fields.query ?? "")).length,
    );
    expect(statements.reduce((a, b) => a + b, 0)).toBe(mine.length);
    expect(Math.max(...statements)).toBe(1);
  });

  it("serves the UI and its libraries without a build, and refuses foreign hosts and non-JSON posts", async () => {
    const page = await fetch(dash.url + "/");
    expect(await page.text()).toContain('"preact": "/vendor/preact.mjs"');
    for (const lib of ["preact.mjs", "preact-hooks.mjs", "htm.mjs", "dagre.mjs"]) {
      const res = await fetch(`${dash.url}/vendor/${lib}`);
      expect(res.status, lib).toBe(200);
      expect(res.headers.get("content-type")).toContain("javascript");
    }
    expect((await fetch(`${dash.url}/vendor/../../package.json`)).status).toBe(404);
    expect(await statusWithHost(`${dash.url}/api/status`, "attacker.example:9400")).toBe(403);
    expect(await statusWithHost(`${dash.url}/api/status`, "localhost:9400")).toBe(200);
    const form = await fetch(`${dash.url}/api/cron/cleanup-stale-urls/run`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "{}",
    });
    expect(form.status).toBe(415);
  });
});
