// What `encore run`'s gateway and runtime do on the wire, copied by the local runtime: CORS (and the
// deployed rules of encore.app's global_cors under LOCAL_CORS=production), internal_message, the
// oversized-body error, date formatting, X-Encore-Trace-Id, raw handlers failing before their first body
// byte, and /__encore/healthz. Each test names the Encore source it rests on (paths in encoredev/encore).
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type SpawnedApp } from "./spawn-app";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "__tests__", "runtime-app");

async function call(app: SpawnedApp, pathAndQuery: string, init: RequestInit = {}) {
  const res = await fetch(app.baseUrl + pathAndQuery, init);
  const text = await res.text();
  const json = res.headers.get("content-type") === "application/json" ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

const list = (value: string | null) => (value ?? "").split(",").map((h) => h.trim());
const TRACE_ID = /^[0-9a-v]{26}$/;

describe("under encore run's rules (the default)", () => {
  let app: SpawnedApp;
  beforeAll(async () => {
    // Unset, as encore run leaves it to its own default (CI also runs the suite with it set to 0).
    app = await startApp(appDir, { DemoSecret: "s3cret", ENCORE_API_INCLUDE_INTERNAL_MESSAGE: undefined, LOCAL_CORS: undefined });
  });
  afterAll(async () => {
    expect(await app.stop()).toBe(0);
  });

  // cli/daemon/run/runtime_config2.go allows every origin with and without credentials;
  // runtimes/core/src/api/cors/mod.rs mirrors an allowed origin; cors_headers_config/mod.rs `apply`.
  it("mirrors any origin with credentials allowed, on typed, raw and error answers, and exposes Encore's headers", async () => {
    const headers = { Origin: "http://elsewhere.example", Authorization: "Bearer good" };
    for (const p of ["/whoami", "/raw/bob", "/fail/not_found", "/no/such/route"]) {
      const res = await call(app, p, { headers });
      expect(res.headers.get("access-control-allow-origin"), p).toBe("http://elsewhere.example");
      expect(res.headers.get("access-control-allow-credentials"), p).toBe("true");
      expect(res.headers.get("vary"), p).toBe("origin, access-control-request-method, access-control-request-headers");
      // global_cors.expose_headers, then ALWAYS_EXPOSED_HEADERS, then the schema's response headers.
      expect(list(res.headers.get("access-control-expose-headers")), p).toEqual([
        "x-raw",
        "x-request-id",
        "x-correlation-id",
        "x-encore-trace-id",
        "location",
        "x-at",
      ]);
    }
  });

  // gateway/mod.rs `request_filter`: every OPTIONS is answered 200 before routing, with the request's
  // method mirrored and the allowed headers listed (extra, ALWAYS_ALLOWED_HEADERS, the schema's headers).
  it("answers every OPTIONS before routing, even for a path with no route", async () => {
    for (const p of ["/items", "/no/such/route"]) {
      const res = await call(app, p, {
        method: "OPTIONS",
        headers: {
          Origin: "http://elsewhere.example",
          "Access-Control-Request-Method": "PUT",
          "Access-Control-Request-Headers": "authorization",
        },
      });
      expect(res.status, p).toBe(200);
      expect(res.text).toBe("");
      expect(res.headers.get("access-control-allow-origin")).toBe("http://elsewhere.example");
      expect(res.headers.get("access-control-allow-credentials")).toBe("true");
      expect(res.headers.get("access-control-allow-methods")).toBe("PUT");
      expect(res.headers.get("access-control-expose-headers")).toBeNull();
      const allowed = list(res.headers.get("access-control-allow-headers"));
      expect(allowed.slice(0, 9)).toEqual([
        "x-extra",
        "accept",
        "authorization",
        "content-type",
        "origin",
        "user-agent",
        "x-correlation-id",
        "x-request-id",
        "x-requested-with",
      ]);
      expect(new Set(allowed.slice(9))).toEqual(new Set(["authorization", "x-trace"]));
    }
  });

  // cli/daemon/run/run.go sets ENCORE_API_INCLUDE_INTERNAL_MESSAGE=1; runtimes/core/src/api/error.rs then
  // always writes internal_message; gateway/router.rs words the routing ones; runtimes/js/src/error.rs
  // keeps an internal error's own message there.
  it("writes internal_message in every error body, as encore run does", async () => {
    expect((await call(app, "/fail/plain")).json).toEqual({
      code: "internal",
      message: "an internal error occurred",
      details: null,
      internal_message: "secret internals",
    });
    expect((await call(app, "/fail/not_found")).json).toEqual({
      code: "not_found",
      message: "failed with not_found",
      details: { hint: "not_found" },
      internal_message: null,
    });
    expect((await call(app, "/no/such/route")).json).toEqual({
      code: "not_found",
      message: "endpoint not found",
      details: null,
      internal_message: "no such endpoint exists: /no/such/route",
    });
    expect((await call(app, "/items", { method: "DELETE" })).json).toEqual({
      code: "not_found",
      message: "no route for method",
      details: null,
      internal_message: "no route for method DELETE: /items",
    });
  });

  // runtimes/core/src/api/endpoint.rs wraps the body in http_body_util::Limited; schema/body.rs turns the
  // failed read into invalid_argument "unable to read request body"; error.rs appends the cause with {:?}.
  it("refuses a body over bodyLimit with 400 invalid_argument", async () => {
    const ok = await call(app, "/small", { method: "POST", body: JSON.stringify({ text: "fits" }) });
    expect(ok.json).toEqual({ length: 4 });
    const res = await call(app, "/small", { method: "POST", body: JSON.stringify({ text: "x".repeat(64) }) });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: "invalid_argument",
      message: "unable to read request body: length limit exceeded\n\nCaused by:\n    length limit exceeded",
      details: null,
      internal_message: null,
    });
  });

  // runtimes/core/src/api/pvalue.rs serializes chrono's DateTime (SecondsFormat::AutoSi, "Z");
  // api/schema/header.rs writes header dates with to_rfc3339() ("+00:00").
  it("writes whole-second dates without a fraction and others with milliseconds", async () => {
    const whole = await call(app, `/when/${Date.parse("2025-01-01T13:00:00Z")}`);
    expect(whole.json).toEqual({ at: "2025-01-01T13:00:00Z" });
    expect(whole.headers.get("x-at")).toBe("2025-01-01T13:00:00+00:00");
    const fraction = await call(app, `/when/${Date.parse("2025-01-01T13:00:00.120Z")}`);
    expect(fraction.json).toEqual({ at: "2025-01-01T13:00:00.120Z" });
    expect(fraction.headers.get("x-at")).toBe("2025-01-01T13:00:00.120+00:00");
  });

  // gateway/mod.rs `response_filter`/`fail_to_proxy` add X-Encore-Trace-Id to every routed answer, the
  // auth handler's failures included; a request that matched no route, an OPTIONS and the health check
  // never got a trace. The id is 16 bytes in Encore's base32 (model/mod.rs `serialize_encore`).
  it("names the trace of every routed answer in X-Encore-Trace-Id", async () => {
    const ids = [];
    for (const [p, init] of [
      ["/echo/x?q=1", {}],
      ["/raw/bob", {}],
      ["/fail/internal", {}],
      ["/whoami", {}],
      ["/whoami", { headers: { Authorization: "Bearer boom" } }],
    ] as const) {
      const id = (await call(app, p, init)).headers.get("x-encore-trace-id");
      expect(id, p).toMatch(TRACE_ID);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect((await call(app, "/no/such/route")).headers.get("x-encore-trace-id")).toBeNull();
    expect((await call(app, "/items", { method: "OPTIONS" })).headers.get("x-encore-trace-id")).toBeNull();
  });

  // runtimes/js/src/raw_api.rs keeps the head unsent until the first body byte, so a handler that throws
  // before one still gets Encore's error response; after one, the response can only be cut off.
  it("sends the error body when a raw handler throws after writeHead but before any body byte", async () => {
    const res = await call(app, "/raw-fail/head");
    expect(res.status).toBe(500);
    expect(res.headers.get("x-chosen")).toBeNull();
    expect(res.headers.get("x-encore-trace-id")).toMatch(TRACE_ID);
    expect(res.json).toEqual({
      code: "internal",
      message: "an internal error occurred",
      details: null,
      internal_message: "raw handler broke",
    });
  });

  it("cuts the response off when a raw handler throws after its body started", async () => {
    const outcome = await new Promise<{ status: number; body: string; complete: boolean }>((resolve, reject) => {
      http
        .get(app.baseUrl + "/raw-fail/body", (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode!, body, complete: res.complete }));
          res.on("error", () => resolve({ status: res.statusCode!, body, complete: false }));
          res.on("aborted", () => resolve({ status: res.statusCode!, body, complete: false }));
        })
        .on("error", reject);
    });
    expect(outcome).toEqual({ status: 201, body: "partial", complete: false });
  });

  // runtimes/core/src/api/encore_routes/healthz.rs, answered by gateway/mod.rs for any method.
  it("answers /__encore/healthz for any method, without CORS or trace headers", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await call(app, "/__encore/healthz", { method, headers: { Origin: "http://elsewhere.example" } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        code: "ok",
        message: "Your Encore app is up and running!",
        details: {
          app_slug: "",
          env_name: "local",
          app_revision: "",
          encore_compiler: "",
          deploy_id: "local",
          checks: [],
          enabled_experiments: [],
        },
      });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(res.headers.get("x-encore-trace-id")).toBeNull();
    }
  });
});

describe("under the deployed rules (LOCAL_CORS=production, no internal_message)", () => {
  let app: SpawnedApp;
  let stopped = false;
  beforeAll(async () => {
    // ENCORE_K8S_GRACE_TERMINATION_SECONDS=12 keeps accepting for 12 s minus the 10 s shutdown budget.
    app = await startApp(appDir, {
      DemoSecret: "s3cret",
      LOCAL_CORS: "production",
      ENCORE_API_INCLUDE_INTERNAL_MESSAGE: "0",
      ENCORE_K8S_GRACE_TERMINATION_SECONDS: "12",
    });
  });
  afterAll(async () => {
    if (!stopped) await app.stop();
  });

  // runtimes/core/src/infracfg.rs: origins with credentials only from global_cors (none when absent),
  // without credentials from global_cors or all; api/cors/mod.rs: Authorization or a cookie, or a
  // preflight announcing either, counts as credentials; "*" in an origin matches at least one character.
  it("allows credentialed requests only from global_cors.allow_origins_with_credentials", async () => {
    const origin = async (o: string, headers: Record<string, string> = {}) =>
      (await call(app, "/echo/x?q=1", { headers: { Origin: o, ...headers } })).headers.get("access-control-allow-origin");
    const creds = { Authorization: "Bearer good" };
    expect(await origin("https://app.example", creds)).toBe("https://app.example");
    expect(await origin("https://pr-7.preview.example", creds)).toBe("https://pr-7.preview.example");
    expect(await origin("https://.preview.example", creds)).toBeNull();
    expect(await origin("https://evil.example", creds)).toBeNull();
    expect(await origin("https://evil.example", { Cookie: "sid=1" })).toBeNull();
    expect(await origin("https://evil.example")).toBe("https://evil.example");
    const preflight = await call(app, "/shorten", {
      method: "OPTIONS",
      headers: {
        Origin: "https://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  // runtimes/core/src/api/error.rs: without ENCORE_API_INCLUDE_INTERNAL_MESSAGE the body has three fields.
  it("leaves internal_message out when ENCORE_API_INCLUDE_INTERNAL_MESSAGE=0, as deployed apps do", async () => {
    expect((await call(app, "/fail/plain")).json).toEqual({ code: "internal", message: "an internal error occurred", details: null });
  });

  // runtimes/core/src/api/manager.rs sets the health check's shutting_down flag on the shutdown signal;
  // runtimes/core/src/lib.rs keeps accepting for the K8s grace period while it answers 503.
  it("answers /__encore/healthz with 503 shutting_down while draining, and still serves requests", async () => {
    expect((await call(app, "/__encore/healthz")).status).toBe(200);
    const stopping = app.stop();
    stopped = true;
    await expect.poll(async () => (await call(app, "/__encore/healthz")).status, { interval: 50, timeout: 1500 }).toBe(503);
    const health = await call(app, "/__encore/healthz");
    expect(health.json).toMatchObject({ code: "shutting_down", message: "Service is shutting down" });
    expect((await call(app, "/echo/x?q=1")).status).toBe(200);
    expect(await stopping).toBe(0);
  });
});
