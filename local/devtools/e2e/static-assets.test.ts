// End to end: `api.static` endpoints of the fixture app in local/__tests__/static-app, served by
// `npm start`'s code path, as Encore's runtime serves them (runtimes/core/src/api/static_assets.rs).
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type SpawnedApp } from "./spawn-app";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "__tests__", "static-app");
let app: SpawnedApp;

beforeAll(async () => {
  app = await startApp(appDir);
});

afterAll(async () => {
  expect(await app.stop()).toBe(0);
});

async function call(pathAndQuery: string, init: RequestInit = {}) {
  const res = await fetch(app.baseUrl + pathAndQuery, { redirect: "manual", ...init });
  const text = await res.text();
  const json = res.headers.get("content-type") === "application/json" && text !== "" ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * A request sent exactly as written: fetch would normalize dot segments, and adds
 * `Cache-Control: no-cache` to conditional requests, which Encore ignores but `send` honours.
 */
function rawGet(pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(app.baseUrl + "/", { path: pathAndQuery, headers }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

const FILE_NOT_FOUND = { code: "not_found", message: "file not found", details: null };

describe("api.static: the page at /", () => {
  it("answers GET with index.html and HEAD with the same headers and no body", async () => {
    const get = await call("/");
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toMatch(/^text\/html/);
    expect(get.text).toContain("home page");
    expect(get.headers.get("last-modified")).not.toBeNull();

    const head = await call("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
  });

  it("revalidates with If-Modified-Since to a bodyless 304", async () => {
    const first = await call("/");
    const again = await rawGet("/", { "If-Modified-Since": first.headers.get("last-modified")! });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
  });

  it("declares only GET and HEAD", async () => {
    expect(await call("/", { method: "POST" })).toMatchObject({ status: 404, json: { code: "not_found", message: "no route for method" } });
  });

  it("leaves single-segment paths to the /:code route, except where matchit 0.7 finds none", async () => {
    expect((await call("/abc123")).json).toEqual({ code: "abc123" });
    expect((await call("/robots.txt")).json).toEqual({ code: "robots.txt" });
    // "/ui" is one slash short of the route "/ui/", which matchit reports without trying /:code, so
    // the main routes have none for it and the root fallback takes it.
    const ui = await call("/ui");
    expect(ui.status).toBe(200);
    expect(ui.text).toContain("spa shell");
  });
});

describe("api.static: assets under a prefix", () => {
  it("serves a file with its content type and the configured headers, on GET and HEAD", async () => {
    const get = await call("/ui/app.js");
    expect(get.status).toBe(200);
    expect(get.text).toBe('console.log("app");\n');
    expect(get.headers.get("content-type")).toMatch(/javascript/);
    expect(get.headers.get("cache-control")).toBe("public, max-age=60");
    expect(get.headers.get("x-extra")).toBe("a, b");

    const head = await call("/ui/style.css", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toMatch(/^text\/css/);
    expect(head.headers.get("content-length")).toBe(String("body { color: black; }\n".length));
  });

  it("answers an unknown asset with 404 file not found, never the /:code route", async () => {
    for (const p of ["/ui/nope.js", "/ui/abc123", "/ui/", "/ui/a/b/c"]) {
      expect(await call(p), p).toMatchObject({ status: 404, json: FILE_NOT_FOUND });
    }
    expect(await call("/ui/nope.js", { method: "HEAD" })).toMatchObject({ status: 404, text: "" });
  });

  it("serves a directory's index.html, redirecting to the slashed path as ServeDir does", async () => {
    const redirect = await call("/ui/sub");
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toBe("/sub/");
    expect((await call("/ui/sub/")).text).toContain("sub index");
  });

  it("never serves a file outside dir", async () => {
    // An escaped slash reaches the file server, which refuses the ".." as a missing file.
    for (const p of ["/ui/..%2fpages.ts", "/ui/%2e%2e%2fpages.ts", "/ui/sub/..%2f..%2fpages.ts"]) {
      const res = await rawGet(p);
      expect(res.status, p).toBe(404);
      expect(JSON.parse(res.body), p).toMatchObject(FILE_NOT_FOUND);
    }
    // Plain dot segments are resolved before routing (see local/README.md): they never reach dir.
    for (const p of ["/ui/../pages.ts", "/ui/%2e%2e/%2e%2e/encore.service.ts"]) {
      expect((await rawGet(p)).body, p).not.toContain("api.static");
    }
  });

  it("answers a Range request with 206 and the bytes asked for", async () => {
    const res = await call("/ui/app.js", { headers: { Range: "bytes=0-6" } });
    expect(res.status).toBe(206);
    expect(res.text).toBe("console");
    expect(res.headers.get("content-range")).toBe("bytes 0-6/20");
  });

  it("keeps an unexposed static endpoint private: its path is routed to it and refused, as Encore's gateway does", async () => {
    const res = await call("/internal/guide.html");
    expect(res).toMatchObject({ status: 404, json: { code: "not_found", message: "endpoint not found" } });
    expect(res.text).not.toContain("guide");
  });
});

describe("api.static: notFound", () => {
  it("serves the notFound file with 404 and no validators", async () => {
    expect((await call("/docs/guide.html")).text).toContain("guide");
    const miss = await call("/docs/nope.html");
    expect(miss.status).toBe(404);
    expect(miss.headers.get("content-type")).toMatch(/^text\/html/);
    expect(miss.text).toContain("no such page");
    expect(miss.headers.get("last-modified")).toBeNull();
    expect(await call("/docs/nope.html", { method: "HEAD" })).toMatchObject({ status: 404, text: "" });
  });

  it("with notFoundStatus 200 and a root fallback, serves a single-page app at every path no route takes", async () => {
    for (const p of ["/a/b", "/deep/link/page", "/a/robots.txt"]) {
      const res = await call(p);
      expect(res.status, p).toBe(200);
      expect(res.text, p).toContain("spa shell");
    }
    expect(await call("/a/b", { method: "PUT" })).toMatchObject({
      status: 404,
      json: { code: "not_found", message: "no route for method" },
    });
  });
});
