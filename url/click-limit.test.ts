// Click limits: exact under concurrency, in the click batch's own statement, per batch group and
// across instances; set, changed and removed over HTTP; a page for browsers once reached.
import http from "node:http";
import { describe, expect, it, vi } from "vitest";
import { describeLocal, expectErrorResponse, itOnServer } from "../local/testing";
import { writeClicks, type Click } from "./clicks";
import { db } from "./db";
import { recordClick } from "./resolve";
import { getStatus, newUser, serveApiForThisFile, visit } from "./__tests__/helpers";
import { url } from "~encore/clients";

/** A new link of a new user's with the click limit `maxClicks`. */
async function limitedLink(maxClicks: number, path: string): Promise<string> {
  const { code } = await url.shorten({ url: `https://example.com/${path}`, maxClicks }, { authData: newUser() });
  return code;
}

/** The link's count and the sum of its click history, which must agree. */
async function countsOf(code: string): Promise<{ clicks: number; history: number }> {
  const row = await db.queryRow<{ clicks: number; history: number }>`
    SELECT u.clicks, COALESCE((SELECT SUM(f.clicks)::int FROM url_click_facts f WHERE f.url_id = u.id), 0) AS history
    FROM urls u WHERE u.code = ${code}
  `;
  return row!;
}

describe("the click limit in the click batch", () => {
  it("counts as unique visitors only those whose click the limit let through", async () => {
    const code = await limitedLink(1, "one-visitor");
    const visitors = ["203.0.113.1\0UA", "203.0.113.2\0UA", "203.0.113.3\0UA"];
    const results = await writeClicks(visitors.map((visitor) => ({ code, ...visit({ visitor }) }) as Click));
    expect(results.filter((r) => "target" in r)).toHaveLength(1);
    const row = await db.queryRow<{ visitors: number; hashes: number }>`
      SELECT (SELECT SUM(f.visitors)::int FROM url_click_facts f WHERE f.url_id = u.id) AS visitors,
             (SELECT count(*)::int FROM url_visitors v WHERE v.url_id = u.id) AS hashes
      FROM urls u WHERE u.code = ${code}
    `;
    expect(row).toEqual({ visitors: 1, hashes: 1 });
  });

  it("grants a batch's groups what is left below the limit, in order, in the one statement", async () => {
    const code = await limitedLink(5, "five");
    const kinds = [visit({ device: "mobile" }), visit({ device: "desktop" }), visit({ referrerHost: "news.example.com" })];
    const statements = vi.spyOn(db, "queryAll");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => recordClick(code, kinds[i % 3])));
    expect(statements).toHaveBeenCalledTimes(1);
    statements.mockRestore();
    expect(results.filter((r) => "target" in r)).toHaveLength(5);
    expect(results.filter((r) => "gone" in r && r.gone === "limit_reached")).toHaveLength(7);
    expect(await countsOf(code)).toEqual({ clicks: 5, history: 5 });
    expect(await recordClick(code, visit())).toEqual({ gone: "limit_reached" });
    expect(await countsOf(code)).toEqual({ clicks: 5, history: 5 });
  });

  itOnServer("holds across two instances writing batches at once", async () => {
    const codes = await Promise.all([limitedLink(30, "thirty-a"), limitedLink(30, "thirty-b")]);
    const batch = (order: string[]): Click[] => Array.from({ length: 50 }, (_, i) => ({ code: order[i % 2], ...visit() }));
    const [a, b] = await Promise.all([writeClicks(batch(codes)), writeClicks(batch([...codes].reverse()))]);
    expect([...a, ...b].filter((r) => "target" in r)).toHaveLength(60);
    for (const code of codes) expect(await countsOf(code)).toEqual({ clicks: 30, history: 30 });
  });
});

describeLocal("click limits over HTTP", () => {
  const api = serveApiForThisFile(1);
  const { call } = api;

  it("sends exactly 100 of 1,000 concurrent visits on to a link limited to 100, and counts exactly those", async () => {
    const created = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/hundred", maxClicks: 100 });
    const { code } = (await created.json()) as { code: string };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 250 });
    let statuses: number[];
    try {
      statuses = await Promise.all(Array.from({ length: 1000 }, () => getStatus(`${api.baseUrl}/${code}`, {}, agent)));
    } finally {
      agent.destroy();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 404)).toHaveLength(900);
    expect(await countsOf(code)).toEqual({ clicks: 100, history: 100 });
    expect(await (await call("GET", `/${code}/stats`)).json()).toMatchObject({ clicks: 100 });

    await expectErrorResponse(await call("GET", `/${code}`), 404, { code: "not_found", message: "URL has reached its click limit" });
    const page = await call("GET", `/${code}`, undefined, undefined, { Accept: "text/html" });
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This link is no longer available");
    const head = await call("HEAD", `/${code}`);
    expect(head.status).toBe(404);
    expect(await countsOf(code)).toEqual({ clicks: 100, history: 100 });
  });

  it("lists, raises and removes a limit with PATCH, and refuses bad values naming maxClicks", async () => {
    const created = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/one", maxClicks: 1 });
    const { code } = (await created.json()) as { code: string };
    expect((await call("GET", `/${code}`)).status).toBe(200);
    expect((await call("GET", `/${code}`)).status).toBe(404);
    const raised = await call("PATCH", `/urls/${code}`, api.tokens[0], { maxClicks: 2 });
    expect(await raised.json()).toMatchObject({ maxClicks: 2, clicks: 1 });
    expect((await call("GET", `/${code}`)).status).toBe(200);
    expect((await call("GET", `/${code}`)).status).toBe(404);
    const removed = await call("PATCH", `/urls/${code}`, api.tokens[0], { maxClicks: null });
    expect(await removed.json()).toMatchObject({ maxClicks: null });
    expect((await call("GET", `/${code}`)).status).toBe(200);

    for (const maxClicks of [0, -1, 1.5, 1_000_000_001]) {
      const resp = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/bad", maxClicks });
      expect(resp.status).toBe(400);
      expect(((await resp.json()) as { message: string }).message).toMatch(/maxClicks/);
    }
  });
});
