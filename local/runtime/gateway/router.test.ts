import { describe, expect, it } from "vitest";
import { Router } from "./router";

// Each expectation below is what matchit 0.7.3 (the router of runtimes/core/src/api/gateway/router.rs)
// answered for the same registered paths, computed as runtimes/core/src/api/paths.rs computes them.

/** The app's routes: url, auth, analytics, web, and the private endpoints, which the gateway routes too. */
function appRouter() {
  const r = new Router<string>();
  r.add("/:code", ["GET", "HEAD"], "resolve");
  r.add("/:code/stats", ["GET"], "stats");
  r.add("/shorten", ["POST"], "shorten");
  r.add("/urls", ["GET"], "list");
  r.add("/urls/:code", ["PATCH"], "update");
  r.add("/urls/:code", ["DELETE"], "delete");
  r.add("/urls/:code/clicks", ["GET"], "clicks");
  r.add("/internal/cron/cleanup-stale-urls", ["POST"], "cron");
  r.add("/internal/totals", ["GET"], "totals");
  r.add("/url.cleanupStaleUrls", ["POST"], "cleanup");
  r.add("/auth/signup", ["POST"], "signup");
  r.add("/auth/login", ["POST"], "login");
  r.add("/auth/me", ["GET"], "me");
  r.add("/analytics/daily", ["GET"], "daily");
  r.add("/analytics/summary", ["GET"], "summary");
  r.add("/", ["GET", "HEAD"], "page");
  r.add("/ui/*path", ["GET", "HEAD"], "assets");
  return r;
}

describe("Router (matchit 0.7 semantics)", () => {
  const r = appRouter();

  it("matches params and decodes them", () => {
    expect(r.find("GET", "/abc123")).toEqual({ value: "resolve", params: { code: "abc123" } });
    expect(r.find("HEAD", "/abc123")).toEqual({ value: "resolve", params: { code: "abc123" } });
    expect(r.find("GET", "/abc123/stats")).toEqual({ value: "stats", params: { code: "abc123" } });
    expect(r.find("GET", "/a%20b")).toEqual({ value: "resolve", params: { code: "a b" } });
    expect(r.find("GET", "/urls/abc/clicks")).toEqual({ value: "clicks", params: { code: "abc" } });
  });

  it("routes each method of a shared path to its own endpoint", () => {
    expect(r.find("PATCH", "/urls/abc")).toEqual({ value: "update", params: { code: "abc" } });
    expect(r.find("DELETE", "/urls/abc")).toEqual({ value: "delete", params: { code: "abc" } });
    expect(r.find("GET", "/urls/abc")).toBe("method");
  });

  it("prefers a static route and reports one that exists only under other methods", () => {
    expect(r.find("GET", "/urls")).toEqual({ value: "list", params: {} });
    expect(r.find("GET", "/shorten")).toBe("method");
    expect(r.find("POST", "/abc")).toBe("method");
  });

  it("routes private endpoints like any other (the server then answers that they are not exposed)", () => {
    expect(r.find("GET", "/internal/totals")).toEqual({ value: "totals", params: {} });
    expect(r.find("POST", "/url.cleanupStaleUrls")).toEqual({ value: "cleanup", params: {} });
  });

  it("finds nothing for /ui, /u/, /a/ and /url/: no backtracking from a static prefix to /:code there", () => {
    for (const path of ["/ui", "/u/", "/a/", "/url/", "/urls/x/y", "/abc/x", "/auth/x", "/abc//"]) {
      expect(r.find("GET", path), path).toBeNull();
    }
  });

  it("backtracks to /:code where matchit does", () => {
    for (const code of ["u", "a", "url", "ui2", "uix", "auth", "analytics", "internal", "shortenx", "sh", "ur"]) {
      expect(r.find("GET", `/${code}`), code).toEqual({ value: "resolve", params: { code } });
    }
    for (const code of ["sh", "ur", "au", "in", "an", "auth", "internal", "analytics"]) {
      expect(r.find("GET", `/${code}/`), `${code}/`).toEqual({ value: "resolve", params: { code } });
    }
  });

  it("takes one trailing slash through the twin route Encore registers", () => {
    expect(r.find("GET", "/urls/")).toEqual({ value: "list", params: {} });
    expect(r.find("GET", "/abc/stats/")).toEqual({ value: "stats", params: { code: "abc" } });
    expect(r.find("POST", "/shorten/")).toEqual({ value: "shorten", params: {} });
  });

  it("matches an empty segment as a parameter, as matchit does", () => {
    expect(r.find("GET", "//")).toEqual({ value: "resolve", params: { code: "" } });
  });

  it("serves the page at / and the assets under /ui/, the bare /ui/ with an empty wildcard", () => {
    expect(r.find("GET", "/")).toEqual({ value: "page", params: {} });
    expect(r.find("POST", "/")).toBe("method");
    expect(r.find("GET", "/ui/")).toEqual({ value: "assets", params: { path: "" } });
    expect(r.find("GET", "/ui/a/b.js")).toEqual({ value: "assets", params: { path: "a/b.js" } });
  });

  it("uses a fallback route only when the main routes have none for the path and method", () => {
    const site = new Router<string>();
    site.add("/files/*path", ["GET"], "files");
    site.add("/!fallback", ["GET"], "fallback");
    expect(site.find("GET", "/x/y/z")).toEqual({ value: "fallback", params: { fallback: "x/y/z" } });
    expect(site.find("GET", "/")).toEqual({ value: "fallback", params: { fallback: "" } });
    expect(site.find("GET", "/files/a")).toEqual({ value: "files", params: { path: "a" } });
    expect(site.find("PUT", "/x/y")).toBe("method");
    expect(new Router<string>().find("GET", "/x")).toBeNull();
  });

  it("refuses undecodable parameters", () => {
    expect(r.find("GET", "/%E0%A4%A")).toBeNull();
  });
});
