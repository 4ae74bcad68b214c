import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { describeLocal, expectAPIError, startTestServer, type TestServer } from "../local/testing";
import { recordClick } from "./resolve";
import { stats } from "./stats";
import { newUser, shortenAs } from "./__tests__/helpers";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("resolving a code", () => {
  it("counts 200 concurrent clicks exactly", async () => {
    const target = "https://example.com/popular";
    const { code } = await shortenAs(newUser(), target);
    const results = await Promise.all(Array.from({ length: 200 }, () => recordClick(code)));
    expect(results.every((url) => url === target)).toBe(true);
    expect((await stats({ code })).clicks).toBe(200);
  });

  it("finds nothing for unknown or malformed codes", async () => {
    expect(await recordClick("zzzzzz")).toBeNull();
    expect(await recordClick("ABC123")).toBeNull();
    expect(await recordClick("abc' OR '1'='1")).toBeNull();
  });

  it("stats are not_found for unknown and malformed codes, and change nothing", async () => {
    await expectAPIError(stats({ code: "zzzzzz" }), ErrCode.NotFound, "URL not found");
    await expectAPIError(stats({ code: "../etc" }), ErrCode.NotFound, "URL not found");
    const { code } = await shortenAs(newUser(), "https://example.com/quiet");
    await stats({ code });
    await stats({ code });
    expect((await stats({ code })).clicks).toBe(0);
  });
});

describeLocal("GET /:code over HTTP", () => {
  let server: TestServer;
  const target = "https://example.com/landing?ref=qr#top";
  let code: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ code } = await shortenAs(newUser(), target));
  });
  afterAll(async () => {
    await server.close();
  });

  it("redirects a browser with a bare 302", async () => {
    const resp = await fetch(`${server.baseUrl}/${code}`, { redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
    expect(resp.status).toBe(302);
    expect(resp.headers.get("location")).toBe(target);
    expect(resp.headers.get("cache-control")).toBe("no-store");
    expect(resp.headers.get("vary")).toMatch(/accept/i);
    expect(await resp.text()).toBe("");
  });

  it.each([
    ["a JSON client", "application/json"],
    ["curl's */*", "*/*"],
    ["a client that sends no preference", undefined],
  ])("answers %s with 200 {url}", async (_, accept) => {
    const resp = await fetch(`${server.baseUrl}/${code}`, {
      redirect: "manual",
      headers: accept === undefined ? {} : { Accept: accept },
    });
    expect(resp.status).toBe(200);
    expect(resp.headers.get("content-type")).toMatch(/^application\/json/);
    expect(resp.headers.get("location")).toBeNull();
    expect(resp.headers.get("cache-control")).toBe("no-store");
    expect(await resp.json()).toEqual({ url: target });
  });

  it.each([
    ["an unknown code", "zzzzzz"],
    ["a malformed code", "ABC!23"],
  ])("answers %s with Encore's not_found error", async (_, path) => {
    for (const accept of [BROWSER_ACCEPT, "application/json"]) {
      const resp = await fetch(`${server.baseUrl}/${encodeURIComponent(path)}`, { redirect: "manual", headers: { Accept: accept } });
      expect(resp.status).toBe(404);
      expect(resp.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await resp.json()).toEqual({ code: "not_found", message: "URL not found", details: null });
    }
  });

  it("counts 200 concurrent HTTP visits exactly and reports them in stats", async () => {
    const { code: popular } = await shortenAs(newUser(), "https://example.com/viral");
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const resp = await fetch(`${server.baseUrl}/${popular}`, {
          redirect: "manual",
          headers: { Accept: i % 2 === 0 ? BROWSER_ACCEPT : "application/json" },
        });
        await resp.arrayBuffer();
        return resp.status;
      }),
    );
    expect(statuses.filter((s) => s === 302)).toHaveLength(100);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);

    const resp = await fetch(`${server.baseUrl}/${popular}/stats`);
    expect(resp.status).toBe(200);
    expect(resp.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await resp.json()).toEqual({ code: popular, originalUrl: "https://example.com/viral", clicks: 200 });
  });
});
