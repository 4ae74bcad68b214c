// Tags, search, UTM and device targets over HTTP: each field created, changed and removed, bad values
// refused naming the field, tag filter and search across cursor pages, each device at its target.
import { expect, it } from "vitest";
import { describeLocal } from "../local/testing";
import type { Link } from "./link";
import { serveApiForThisFile } from "./__tests__/helpers";
import { USER_AGENTS } from "./__tests__/user-agents";

interface Page {
  urls: Link[];
  nextCursor?: string;
}

describeLocal("link options over HTTP", () => {
  const api = serveApiForThisFile(2);
  const { call } = api;

  async function shorten(body: Record<string, unknown>, token = api.tokens[0]): Promise<{ code: string; originalUrl: string }> {
    const resp = await call("POST", "/shorten", token, body);
    expect(resp.status, JSON.stringify(await resp.clone().json())).toBe(200);
    return (await resp.json()) as { code: string; originalUrl: string };
  }

  /** Every link GET /urls lists for the query, following nextCursor, and how many pages it took. */
  async function listAll(query: string, token = api.tokens[1]): Promise<{ codes: string[]; pages: number }> {
    const codes: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const resp = await call("GET", `/urls?${query}${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`, token);
      expect(resp.status).toBe(200);
      const page = (await resp.json()) as Page;
      codes.push(...page.urls.map((u) => u.code));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    return { codes, pages };
  }

  async function badRequest(method: string, path: string, body: unknown): Promise<string> {
    const resp = await call(method, path, api.tokens[0], body);
    const { message } = (await resp.json()) as { message: string };
    expect(resp.status, message).toBe(400);
    return message;
  }

  it("stores tags lower-case and once, changes and removes them, and counts them in GET /tags", async () => {
    const { code } = await shorten({ url: "https://example.com/tagged", tags: ["Launch", "q3_2026", "launch"] });
    const list = (await (await call("GET", "/urls", api.tokens[0])).json()) as Page;
    expect(list.urls.find((u) => u.code === code)!.tags).toEqual(["launch", "q3_2026"]);
    const changed = await call("PATCH", `/urls/${code}`, api.tokens[0], { tags: ["Docs"] });
    expect(await changed.json()).toMatchObject({ tags: ["docs"] });
    await shorten({ url: "https://example.com/tagged-2", tags: ["docs", "blog"] });
    expect(await (await call("GET", "/tags", api.tokens[0])).json()).toEqual({
      tags: [
        { name: "blog", links: 1 },
        { name: "docs", links: 2 },
      ],
    });
    const removed = await call("PATCH", `/urls/${code}`, api.tokens[0], { tags: null });
    expect(await removed.json()).toMatchObject({ tags: [] });
    expect(await (await call("GET", "/tags", api.tokens[0])).json()).toEqual({
      tags: [
        { name: "blog", links: 1 },
        { name: "docs", links: 1 },
      ],
    });
  });

  it("refuses bad tags, UTM values and device URLs with a message naming the field", async () => {
    expect(await badRequest("POST", "/shorten", { url: "https://example.com/", tags: ["no spaces"] })).toMatch(/tags/);
    expect(await badRequest("POST", "/shorten", { url: "https://example.com/", tags: ["x".repeat(33)] })).toMatch(/tags/);
    expect(
      await badRequest("POST", "/shorten", { url: "https://example.com/", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }),
    ).toMatch(/tags/);
    expect(await badRequest("POST", "/shorten", { url: "https://example.com/", utm: { source: "é".repeat(101) } })).toBe(
      "utm.source must be at most 100 characters",
    );
    expect(await badRequest("POST", "/shorten", { url: "https://example.com/", iosUrl: "javascript:alert(1)" })).toMatch(/^iosUrl /);
    expect(await badRequest("POST", "/shorten", { url: "https://example.com/", androidUrl: "/relative" })).toMatch(/^androidUrl /);
    const { code } = await shorten({ url: "https://example.com/patch-me" });
    expect(await badRequest("PATCH", `/urls/${code}`, { iosUrl: "ftp://example.com/" })).toMatch(/^iosUrl /);
    expect(await badRequest("GET", "/urls?tag=no%20spaces", undefined)).toMatch(/tag/);
    expect(await badRequest("GET", `/urls?q=${"x".repeat(201)}`, undefined)).toBe("q must be at most 200 characters");
  });

  it("filters by tag and searches code, alias and target, case-insensitively, across cursor pages", async () => {
    const token = api.tokens[1];
    const tagged: string[] = [];
    for (let i = 0; i < 45; i++) {
      const tags = i % 2 === 0 ? ["even"] : ["odd"];
      const body = { url: `https://shop.example.com/Item-${i}?ref=${i % 3 === 0 ? "Spring_Sale" : "plain"}`, tags };
      const { code } = await shorten(i === 7 ? { ...body, alias: `Promo-${Date.now()}` } : body, token);
      if (i % 2 === 0) tagged.unshift(code);
    }
    const even = await listAll("tag=EVEN");
    expect(even).toEqual({ codes: tagged, pages: 2 });
    // "_" in the search is a character, not LIKE's wildcard: only ?ref=Spring_Sale matches, 15 links.
    expect((await listAll("q=spring_sale")).codes).toHaveLength(15);
    expect((await listAll("q=spring%25sale")).codes).toHaveLength(0);
    expect((await listAll("q=PROMO-")).codes).toHaveLength(1);
    const both = await listAll("tag=odd&q=item-1");
    expect(both.codes).toHaveLength(6); // Item-1, -11, -13, -15, -17, -19
    expect((await listAll("q=item-", api.tokens[0])).codes).toHaveLength(0);
  });

  it("merges UTM parameters into the target, keeping the rest, on shorten and on PATCH", async () => {
    const created = await shorten({
      url: "https://example.com/p?utm_source=old&k=a%20b&k=c#frag",
      utm: { source: "newsletter", medium: "email", campaign: "spring sale" },
    });
    const merged = "https://example.com/p?utm_source=newsletter&k=a%20b&k=c&utm_medium=email&utm_campaign=spring%20sale#frag";
    expect(created.originalUrl).toBe(merged);
    expect(await (await call("GET", `/${created.code}`)).json()).toEqual({ url: merged });

    const patched = await call("PATCH", `/urls/${created.code}`, api.tokens[0], { utm: { campaign: "summer" } });
    expect(await patched.json()).toMatchObject({
      originalUrl: "https://example.com/p?utm_source=newsletter&k=a%20b&k=c&utm_medium=email&utm_campaign=summer#frag",
    });
    const moved = await call("PATCH", `/urls/${created.code}`, api.tokens[0], { url: "https://example.org/x?y=1", utm: { source: "ads" } });
    expect(await moved.json()).toMatchObject({ originalUrl: "https://example.org/x?y=1&utm_source=ads" });
    const cleared = await call("PATCH", `/urls/${created.code}`, api.tokens[0], { utm: null });
    expect(await cleared.json()).toMatchObject({ originalUrl: "https://example.org/x?y=1" });
  });

  it("sends iPhone, iPad and Android visitors to their targets and everyone else to url, counting each once", async () => {
    const { code } = await shorten({
      url: "https://example.com/desktop",
      iosUrl: "https://apps.apple.com/app/id1",
      androidUrl: "https://play.google.com/store/apps/details?id=x",
    });
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
    const visits: [string, string][] = [
      [USER_AGENTS.mobile, "https://apps.apple.com/app/id1"],
      [USER_AGENTS.tablet, "https://apps.apple.com/app/id1"],
      [android, "https://play.google.com/store/apps/details?id=x"],
      [USER_AGENTS.desktop, "https://example.com/desktop"],
    ];
    for (const [agent, expected] of visits) {
      const resp = await call("GET", `/${code}`, undefined, undefined, { "User-Agent": agent, Accept: "text/html" });
      expect({ status: resp.status, location: resp.headers.get("location") }).toEqual({ status: 302, location: expected });
      const head = await call("HEAD", `/${code}`, undefined, undefined, { "User-Agent": agent, Accept: "text/html" });
      expect(head.headers.get("location")).toBe(expected);
    }
    expect(await (await call("GET", `/${code}/stats`)).json()).toMatchObject({ clicks: 4 });

    const patched = await call("PATCH", `/urls/${code}`, api.tokens[0], { iosUrl: null, androidUrl: "https://example.com/android" });
    expect(await patched.json()).toMatchObject({ iosUrl: null, androidUrl: "https://example.com/android" });
    const iphone = await call("GET", `/${code}`, undefined, undefined, { "User-Agent": USER_AGENTS.mobile });
    expect(await iphone.json()).toEqual({ url: "https://example.com/desktop" });
  });
});
