import { describe, expect, it } from "vitest";
import { Router } from "./router";

// The app's own routes plus a wildcard and a fallback, matched as Encore's gateway matches them: matchit
// 0.7.3 in runtimes/core/src/api/gateway/router.rs, on paths normalized by runtimes/core/src/api/paths.rs.
function appRouter() {
  const r = new Router<string>();
  r.add("/:code", ["GET"], "resolve");
  r.add("/:code/stats", ["GET"], "stats");
  r.add("/urls", ["GET"], "list");
  r.add("/urls/:code", ["DELETE"], "delete");
  r.add("/shorten", ["POST"], "shorten");
  r.add("/r/:code", ["GET"], "raw");
  r.add("/files/*path", ["GET"], "files");
  r.add("/!fallback", ["GET"], "fallback");
  return r;
}

describe("Router", () => {
  const r = appRouter();

  it("matches params and decodes them", () => {
    expect(r.find("GET", "/abc123")).toEqual({ value: "resolve", params: { code: "abc123" } });
    expect(r.find("GET", "/abc123/stats")).toEqual({ value: "stats", params: { code: "abc123" } });
    expect(r.find("GET", "/a%20b")).toEqual({ value: "resolve", params: { code: "a b" } });
  });

  it("prefers static segments over params", () => {
    expect(r.find("GET", "/urls")).toEqual({ value: "list", params: {} });
    expect(r.find("GET", "/r/stats")).toEqual({ value: "raw", params: { code: "stats" } });
  });

  it("reports a path that exists only under other methods", () => {
    expect(r.find("GET", "/shorten")).toBe("method");
    expect(r.find("POST", "/abc")).toBe("method");
  });

  it("tolerates one trailing slash", () => {
    expect(r.find("GET", "/urls/")).toEqual({ value: "list", params: {} });
  });

  it("captures the rest of the path in wildcards", () => {
    expect(r.find("GET", "/files/a/b.png")).toEqual({ value: "files", params: { path: "a/b.png" } });
  });

  it("uses the fallback only when nothing else matches", () => {
    expect(r.find("GET", "/x/y/z")).toEqual({ value: "fallback", params: { fallback: "x/y/z" } });
    expect(new Router<string>().find("GET", "/x")).toBeNull();
  });

  it("requires a wildcard's own slash: /files is a single segment, /files/ the wildcard's root", () => {
    expect(r.find("GET", "/files")).toEqual({ value: "resolve", params: { code: "files" } });
    expect(r.find("GET", "/files/")).toEqual({ value: "files", params: { path: "" } });
  });

  it("keeps a static page at / apart from /:code", () => {
    const site = new Router<string>();
    site.add("/:code", ["GET"], "resolve");
    site.add("/", ["GET", "HEAD"], "page");
    site.add("/ui/*path", ["GET", "HEAD"], "assets");
    expect(site.find("GET", "/")).toEqual({ value: "page", params: {} });
    expect(site.find("HEAD", "/")).toEqual({ value: "page", params: {} });
    expect(site.find("GET", "/abc123")).toEqual({ value: "resolve", params: { code: "abc123" } });
    expect(site.find("GET", "/ui/app.js")).toEqual({ value: "assets", params: { path: "app.js" } });
    expect(site.find("POST", "/")).toBe("method");
  });

  it("serves a root fallback at / and at any path no main route takes", () => {
    expect(r.find("GET", "/")).toEqual({ value: "fallback", params: { fallback: "" } });
    expect(r.find("PUT", "/x/y")).toBe("method");
  });

  it("refuses undecodable paths", () => {
    expect(new Router<string>().find("GET", "/%E0%A4%A")).toBeNull();
  });
});
