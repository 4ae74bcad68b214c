import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ErrCode } from "encore.dev/api";
import { describeLocal, expectAPIError, expectErrorResponse, useTestServer } from "../local/testing";
import { db } from "./db";
import { recordClick } from "./resolve";
import { stats } from "./stats";
import type { DeviceKind } from "./click-report-types";
import { DIRECT_VISIT, newUser, shortenAs, visit } from "./__tests__/helpers";
import { USER_AGENTS } from "./__tests__/user-agents";
import { url } from "~encore/clients";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** historyOf reads a link's stored click history, summed per day, per referrer host and per device. */
async function historyOf(code: string) {
  const sums = (by: "day" | "host" | "device") =>
    db.rawQueryAll<{ key: string; clicks: number }>(
      `SELECT ${by}::text AS key, SUM(c.clicks)::int AS clicks FROM url_click_facts c JOIN urls u ON u.id = c.url_id
       WHERE u.code = $1 GROUP BY ${by} ORDER BY ${by}`,
      code,
    );
  const [days, referrers, devices] = await Promise.all([sums("day"), sums("host"), sums("device")]);
  const byKey = (rows: { key: string; clicks: number }[]) => Object.fromEntries(rows.map((r) => [r.key, r.clicks]));
  return { days: days.map((d) => d.clicks), referrers: byKey(referrers), devices: byKey(devices) };
}

describe("resolving a code", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("counts 200 concurrent clicks exactly, in one group-committed statement", async () => {
    const target = "https://example.com/popular";
    const { code } = await shortenAs(newUser(), target);
    const statements = vi.spyOn(db, "queryAll");
    const results = await Promise.all(Array.from({ length: 200 }, () => recordClick(code, DIRECT_VISIT)));
    expect(statements).toHaveBeenCalledTimes(1);
    expect(results.every((r) => "target" in r && r.target === target)).toBe(true);
    expect((await stats({ code })).clicks).toBe(200);
  });

  it("answers each click of a mixed batch with its own link, and unknown codes with nothing", async () => {
    const [a, b] = await Promise.all([shortenAs(newUser(), "https://example.com/a"), shortenAs(newUser(), "https://example.com/b")]);
    const codes = [a.code, "zzzzzz", b.code, a.code, "zzzzzz", b.code, a.code];
    const statements = vi.spyOn(db, "queryAll");
    const results = await Promise.all(codes.map((code) => recordClick(code, DIRECT_VISIT)));
    expect(statements).toHaveBeenCalledTimes(1);
    const toA = { target: "https://example.com/a" };
    const toB = { target: "https://example.com/b" };
    const none = { gone: "not_found" };
    expect(results).toEqual([toA, none, toB, toA, none, toB, toA]);
    expect((await stats({ code: a.code })).clicks).toBe(3);
    expect((await stats({ code: b.code })).clicks).toBe(2);
  });

  it("counts nothing for an expired link in a batch, and says it has expired", async () => {
    const [live, expired] = await Promise.all([
      shortenAs(newUser(), "https://example.com/live"),
      shortenAs(newUser(), "https://example.com/over"),
    ]);
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 millisecond' WHERE code = ${expired.code}`;
    const results = await Promise.all([live.code, expired.code, live.code].map((code) => recordClick(code, DIRECT_VISIT)));
    const toLive = { target: "https://example.com/live" };
    expect(results).toEqual([toLive, { gone: "expired" }, toLive]);
    const row = await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${expired.code}`;
    expect(row).toEqual({ clicks: 0 });
    expect(await historyOf(expired.code)).toEqual({ days: [], referrers: {}, devices: {} });
    expect((await stats({ code: live.code })).clicks).toBe(2);
  });

  it("stores each click's day, referrer host and device in the same write", async () => {
    const { code } = await shortenAs(newUser(), "https://example.com/history");
    const visits = [
      ...Array.from({ length: 5 }, () => visit({ referrerHost: "news.example.com", device: "mobile" })),
      ...Array.from({ length: 3 }, () => visit({ referrerHost: "", device: "desktop" })),
      ...Array.from({ length: 2 }, () => visit({ referrerHost: "news.example.com", device: "bot" })),
    ];
    await Promise.all(visits.map((v) => recordClick(code, v)));
    await recordClick(code, visit({ referrerHost: "mail.example.org", device: "tablet" }));
    expect(await historyOf(code)).toEqual({
      days: [11],
      referrers: { "": 3, "mail.example.org": 1, "news.example.com": 7 },
      devices: { bot: 2, desktop: 3, mobile: 5, tablet: 1 },
    });
    const { last_clicked_at } = (await db.queryRow<{ last_clicked_at: Date }>`
      SELECT last_clicked_at FROM urls WHERE code = ${code}`)!;
    expect(Math.abs(last_clicked_at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("finds nothing for unknown or malformed codes", async () => {
    for (const code of ["zzzzzz", "ABC123", "abc' OR '1'='1", "../etc"]) {
      expect(await recordClick(code, DIRECT_VISIT)).toEqual({ gone: "not_found" });
    }
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
  const server = useTestServer();
  const target = "https://example.com/landing?ref=qr#top";
  let code: string;

  beforeAll(async () => {
    ({ code } = await shortenAs(newUser(), target));
  });

  it("redirects a browser with a bare 302", async () => {
    const resp = await fetch(`${server.baseUrl}/${code}`, { redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
    expect(resp.status).toBe(302);
    expect(resp.headers.get("location")).toBe(target);
    expect(resp.headers.get("cache-control")).toBe("no-store");
    expect(resp.headers.get("vary")).toMatch(/accept/i);
    expect(await resp.text()).toBe("");
  });

  it("keeps its own Vary beside the gateway's CORS Vary, as Encore's gateway appends it", async () => {
    const resp = await fetch(`${server.baseUrl}/${code}`, { headers: { Accept: "application/json", Origin: "https://app.example" } });
    expect(resp.headers.get("vary")).toBe("Accept, origin, access-control-request-method, access-control-request-headers");
    await resp.body?.cancel();
  });

  it("reads the code however the path spells it: with a query, percent-encoded, with a trailing slash", async () => {
    const encoded = [...code].map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
    for (const path of [`/${code}?utm_source=qr`, `/${encoded}`, `/${code}/`]) {
      const resp = await fetch(`${server.baseUrl}${path}`, { redirect: "manual" });
      expect({ path, status: resp.status, body: await resp.json() }).toEqual({ path, status: 200, body: { url: target } });
    }
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
  ])("answers %s with a page to a browser and Encore's not_found error to an API client", async (_, path) => {
    const page = await fetch(`${server.baseUrl}/${encodeURIComponent(path)}`, { redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(await page.text()).toContain("<h1>Link not found</h1>");
    const resp = await fetch(`${server.baseUrl}/${encodeURIComponent(path)}`, {
      redirect: "manual",
      headers: { Accept: "application/json" },
    });
    expect(resp.headers.get("content-type")).toMatch(/^application\/json/);
    await expectErrorResponse(resp, 404, { code: "not_found", message: "URL not found" });
  });

  it("answers an expired or deleted link with its page to a browser and its error to an API client", async () => {
    const user = newUser();
    const [expired, deleted] = await Promise.all([
      shortenAs(user, "https://example.com/expired-target"),
      shortenAs(user, "https://example.com/deleted-target"),
    ]);
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${expired.code}`;
    await url.deleteUrl({ code: deleted.code }, { authData: user });
    for (const [code, title, message] of [
      [expired.code, "This link has expired", "URL has expired"],
      [deleted.code, "Link not found", "URL not found"],
    ]) {
      const page = await fetch(`${server.baseUrl}/${code}`, { redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
      const html = await page.text();
      expect({ status: page.status, title: html.includes(`<h1>${title}</h1>`), target: html.includes("-target") }).toEqual({
        status: 404,
        title: true,
        target: false,
      });
      await expectErrorResponse(await fetch(`${server.baseUrl}/${code}`), 404, { code: "not_found", message });
    }
  });

  it.each([
    ["a browser", BROWSER_ACCEPT, 302],
    ["a JSON client", "application/json", 200],
  ])("answers HEAD from %s like GET, with no body and no click", async (_, accept, status) => {
    const { code: probed } = await shortenAs(newUser(), "https://example.com/probed");
    const get = await fetch(`${server.baseUrl}/${probed}`, { redirect: "manual", headers: { Accept: accept } });
    const getBody = await get.arrayBuffer();
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${server.baseUrl}/${probed}`, { method: "HEAD", redirect: "manual", headers: { Accept: accept } });
      expect(head.status).toBe(status);
      for (const name of ["location", "content-type", "content-length", "cache-control", "vary"]) {
        expect(head.headers.get(name), name).toBe(get.headers.get(name));
      }
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
    expect(Buffer.from(getBody).toString()).toBe(status === 200 ? JSON.stringify({ url: "https://example.com/probed" }) : "");
    expect((await stats({ code: probed })).clicks).toBe(1);
  });

  it("answers HEAD for an unknown code with 404 and no body", async () => {
    const head = await fetch(`${server.baseUrl}/zzzzzz`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("counts 500 concurrent visits with mixed referrers and devices exactly, once per successful resolve", async () => {
    const { code: popular } = await shortenAs(newUser(), "https://example.com/viral");
    const referers = ["https://news.example.com/a?x=1", "https://social.example.org/p/1", undefined, "not a url"];
    const kinds = Object.keys(USER_AGENTS) as DeviceKind[];
    const sent = Array.from({ length: 500 }, (_, i) => ({
      referer: referers[i % referers.length],
      kind: kinds[i % kinds.length],
      browser: i % 2 === 0,
    }));
    const statuses = await Promise.all(
      sent.map(async ({ referer, kind, browser }) => {
        const headers: Record<string, string> = { "User-Agent": USER_AGENTS[kind], Accept: browser ? BROWSER_ACCEPT : "application/json" };
        if (referer !== undefined) headers.Referer = referer;
        const resp = await fetch(`${server.baseUrl}/${popular}`, { redirect: "manual", headers });
        await resp.arrayBuffer();
        return resp.status;
      }),
    );
    expect(statuses.filter((s) => s === 302)).toHaveLength(250);
    expect(statuses.filter((s) => s === 200)).toHaveLength(250);

    const resp = await fetch(`${server.baseUrl}/${popular}/stats`);
    expect(await resp.json()).toEqual({ code: popular, originalUrl: "https://example.com/viral", clicks: 500 });
    expect(await historyOf(popular)).toEqual({
      days: [500],
      referrers: { "": 250, "news.example.com": 125, "social.example.org": 125 },
      devices: { bot: 125, desktop: 125, mobile: 125, tablet: 125 },
    });
  });
});
