import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import type { ClickReport, DeviceKind } from "./click-report-types";
import { db } from "./db";
import { serveApiForThisFile } from "./__tests__/helpers";
import { USER_AGENTS } from "./__tests__/user-agents";

type History = ClickReport;

const sum = (rows: { clicks: number }[]) => rows.reduce((n, r) => n + r.clicks, 0);

/** The UTC date `daysAgo` days before today, as "YYYY-MM-DD". */
function utcDate(daysAgo: number): string {
  return new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString().slice(0, 10);
}

describeLocal("GET /urls/:code/clicks over HTTP", () => {
  const api = serveApiForThisFile(2);
  const { call } = api;

  async function shorten(target: string, alias?: string): Promise<string> {
    const resp = await call("POST", "/shorten", api.tokens[0], { url: target, alias });
    expect(resp.status).toBe(200);
    return ((await resp.json()) as { code: string }).code;
  }

  async function history(code: string, query = ""): Promise<History> {
    const resp = await call("GET", `/urls/${code}/clicks${query}`, api.tokens[0]);
    expect(resp.status).toBe(200);
    return (await resp.json()) as History;
  }

  it("agrees with 500 concurrent clicks of mixed referrers and devices: clicks, days, every split", async () => {
    const code = await shorten("https://example.com/campaign");
    const referers = [
      "https://news.example.com/story?id=1",
      "https://social.example.org/post/9",
      "android-app://com.slack/",
      undefined,
      "garbage",
    ];
    const kinds = Object.keys(USER_AGENTS) as DeviceKind[];
    const sent = Array.from({ length: 500 }, (_, i) => ({
      referer: referers[i % 5],
      kind: kinds[Math.floor(i / 5) % 4],
      browser: i % 3 === 0,
    }));
    const statuses = await Promise.all(
      sent.map(async ({ referer, kind, browser }) => {
        const headers: Record<string, string> = { "User-Agent": USER_AGENTS[kind], Accept: browser ? "text/html" : "application/json" };
        if (referer !== undefined) headers.Referer = referer;
        const resp = await call("GET", `/${code}`, undefined, undefined, headers);
        await resp.arrayBuffer();
        return resp.status;
      }),
    );
    const resolved = statuses.filter((s) => s === 200 || s === 302).length;
    expect(resolved).toBe(500);

    const { clicks } = (await (await call("GET", `/${code}/stats`)).json()) as { clicks: number };
    expect(clicks).toBe(resolved);
    const h = await history(code);
    expect(h.total).toBe(500);
    expect(h.days).toHaveLength(30);
    // Three people (one per browser's User-Agent, all from loopback); the crawler is no one.
    expect(h.days.at(-1)).toEqual({ date: utcDate(0), clicks: 500, uniqueVisitors: 3 });
    expect(h.uniqueVisitors).toBe(3);
    expect(sum(h.days)).toBe(500);
    expect(h.referrers).toEqual([
      { host: "(direct)", clicks: 200 },
      { host: "com.slack", clicks: 100 },
      { host: "news.example.com", clicks: 100 },
      { host: "social.example.org", clicks: 100 },
    ]);
    expect(h.devices).toEqual(kinds.map((kind) => ({ kind, clicks: 125 })));
    expect(h.browsers).toEqual([
      { name: "Safari", clicks: 250 },
      { name: "Chrome", clicks: 125 },
      { name: "Googlebot", clicks: 125 },
    ]);
    expect(h.os).toEqual([
      { name: "iOS", clicks: 250 },
      { name: "(unknown)", clicks: 125 },
      { name: "Linux", clicks: 125 },
    ]);
    expect(h.countries).toEqual([{ name: "ZZ", clicks: 500 }]);
    expect(h.sources).toEqual([
      { name: "link", clicks: 500 },
      { name: "qr", clicks: 0 },
    ]);
    expect(h.campaigns).toEqual([{ name: "(none)", clicks: 500 }]);
  });

  it("lists every day of the window oldest first, and counts only clicks inside it", async () => {
    const code = await shorten("https://example.com/old-news");
    await db.exec`
      INSERT INTO url_clicks (url_id, day, host, device, clicks)
      SELECT id, (now() AT TIME ZONE 'UTC')::date - d, 'old.example', 'mobile', 7 FROM urls, unnest(ARRAY[2, 6, 40]) AS d WHERE code = ${code}`;

    const week = await history(code, "?days=7");
    expect(week.days.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(utcDate));
    expect(week.days.map((d) => d.clicks)).toEqual([7, 0, 0, 0, 7, 0, 0]);
    expect(week).toMatchObject({ total: 14, referrers: [{ host: "old.example", clicks: 14 }] });
    expect(week.devices.find((d) => d.kind === "mobile")).toEqual({ kind: "mobile", clicks: 14 });

    expect((await history(code, "?days=1")).total).toBe(0);
    expect((await history(code, "?days=366")).total).toBe(21);
    expect((await history(code)).days).toHaveLength(30);
  });

  it("adds in the history of the three tables before migration 006, which the previous version still writes while it rolls out", async () => {
    const code = await shorten("https://example.com/long-lived");
    const ago = (d: number) => db.queryRow<{ day: string }>`SELECT ((now() AT TIME ZONE 'UTC')::date - ${d}::int)::text AS day`;
    const [two, six] = [(await ago(2))!.day, (await ago(6))!.day];
    // The previous version's statement: a day, a referrer and a device row for the same 7 clicks.
    for (const day of [two, six]) {
      await db.exec`INSERT INTO url_daily_clicks (url_id, day, clicks) SELECT id, ${day}::date, 7 FROM urls WHERE code = ${code}`;
      await db.exec`INSERT INTO url_referrer_clicks (url_id, day, host, clicks) SELECT id, ${day}::date, 'old.example', 7 FROM urls WHERE code = ${code}`;
      await db.exec`INSERT INTO url_device_clicks (url_id, day, device, clicks) SELECT id, ${day}::date, 'mobile', 7 FROM urls WHERE code = ${code}`;
    }
    await db.exec`
      INSERT INTO url_clicks (url_id, day, host, device, clicks)
      SELECT id, ${two}::date, host, 'desktop', 5 FROM urls, unnest(ARRAY['old.example', 'new.example']) AS host WHERE code = ${code}`;

    const week = await history(code, "?days=7");
    expect(week.days.map((d) => d.clicks)).toEqual([7, 0, 0, 0, 7 + 10, 0, 0]);
    expect(week.total).toBe(24);
    expect(week.referrers).toEqual([
      { host: "old.example", clicks: 14 + 5 },
      { host: "new.example", clicks: 5 },
    ]);
    expect(week.devices).toEqual([
      { kind: "desktop", clicks: 10 },
      { kind: "mobile", clicks: 14 },
      { kind: "tablet", clicks: 0 },
      { kind: "bot", clicks: 0 },
    ]);
    expect((await history(code, "?days=3")).total).toBe(7 + 10);
    // Those versions recorded no country, browser, system, source or campaign, and no visitors.
    expect(week).toMatchObject({
      countries: [{ name: "ZZ", clicks: 24 }],
      browsers: [{ name: "(unknown)", clicks: 24 }],
      os: [{ name: "(unknown)", clicks: 24 }],
      sources: [
        { name: "link", clicks: 24 },
        { name: "qr", clicks: 0 },
      ],
      campaigns: [{ name: "(none)", clicks: 24 }],
      uniqueVisitors: 0,
    });
  });

  it("takes from and to instead of days, across a month boundary", async () => {
    const code = await shorten("https://example.com/month-end");
    await db.exec`
      INSERT INTO url_click_facts (url_id, day, host, device, country, browser, os, source, campaign, clicks, visitors)
      SELECT id, v.day::date, '', 'mobile', 'FR', 'Safari', 'iOS', 'qr', '', v.clicks, 1
      FROM urls, (VALUES ('2026-01-29', 1), ('2026-01-30', 2), ('2026-01-31', 3), ('2026-02-01', 4), ('2026-02-02', 5)) AS v (day, clicks)
      WHERE code = ${code}`;

    const h = await history(code, "?from=2026-01-30&to=2026-02-01");
    expect(h).toMatchObject({ from: "2026-01-30", to: "2026-02-01", total: 9, uniqueVisitors: 3 });
    expect(h.days).toEqual([
      { date: "2026-01-30", clicks: 2, uniqueVisitors: 1 },
      { date: "2026-01-31", clicks: 3, uniqueVisitors: 1 },
      { date: "2026-02-01", clicks: 4, uniqueVisitors: 1 },
    ]);
    expect(h.countries).toEqual([{ name: "FR", clicks: 9 }]);
    expect(h.sources).toEqual([
      { name: "link", clicks: 0 },
      { name: "qr", clicks: 9 },
    ]);
    expect((await history(code, "?from=2026-02-02&to=2026-02-02")).days).toEqual([{ date: "2026-02-02", clicks: 5, uniqueVisitors: 1 }]);
    expect((await history(code, "?from=2025-01-01&to=2026-02-05")).days).toHaveLength(401);
  });

  it.each([
    ["days=7&from=2026-01-01&to=2026-01-02", "give either days or from and to, not both"],
    ["from=2026-01-01", "from and to go together"],
    ["to=2026-01-01", "from and to go together"],
    ["from=2026-02-30&to=2026-03-01", "from must be a day written YYYY-MM-DD"],
    ["from=2026-01-02&to=2026-01-01", "from must not be after to"],
    ["from=2025-01-01&to=2026-02-06", "from and to may be at most 400 days apart"],
  ])("refuses %s with 400: %s", async (query, message) => {
    const code = await shorten("https://example.com/bad-range");
    const resp = await call("GET", `/urls/${code}/clicks?${query}`, api.tokens[0]);
    await expectErrorResponse(resp, 400, { code: "invalid_argument", message });
  });

  it("refuses a from or to that is not written YYYY-MM-DD before reading anything", async () => {
    const code = await shorten("https://example.com/bad-day");
    const resp = await call("GET", `/urls/${code}/clicks?from=yesterday&to=2026-01-01`, api.tokens[0]);
    expect(resp.status).toBe(400);
    expect(((await resp.json()) as { message: string }).message).toMatch(/from/);
  });

  it("names the 10 busiest referrer hosts and sums the rest as other", async () => {
    const code = await shorten("https://example.com/everywhere");
    for (let i = 1; i <= 12; i++) {
      await Promise.all(
        Array.from({ length: i }, () =>
          call("GET", `/${code}`, undefined, undefined, { Referer: `https://site${String(i).padStart(2, "0")}.example/` }).then((r) =>
            r.arrayBuffer(),
          ),
        ),
      );
    }
    const { referrers, total } = await history(code);
    expect(referrers).toHaveLength(11);
    expect(referrers[0]).toEqual({ host: "site12.example", clicks: 12 });
    expect(referrers[9]).toEqual({ host: "site03.example", clicks: 3 });
    expect(referrers[10]).toEqual({ host: "other", clicks: 1 + 2 });
    expect(sum(referrers)).toBe(total);
  });

  it("goes with its link: deleting a link deletes its history, and only its", async () => {
    const [gone, kept] = [await shorten("https://example.com/deleted"), await shorten("https://example.com/kept")];
    for (const code of [gone, kept]) await (await call("GET", `/${code}`)).arrayBuffer();
    const rowsOf = async (codes: string[]) =>
      (await db.queryRow<{ n: number }>`
        SELECT count(*)::int AS n FROM url_click_facts WHERE url_id IN (SELECT id FROM urls WHERE code = ANY(${codes}::text[]))`)!.n;
    const ids = await db.queryAll<{ id: number }>`SELECT id FROM urls WHERE code = ${gone}`;
    expect(await rowsOf([gone, kept])).toBe(2);
    expect((await call("DELETE", `/urls/${gone}`, api.tokens[0])).status).toBe(200);
    const left = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM url_click_facts WHERE url_id = ${ids[0].id}`;
    expect(left!.n).toBe(0);
    expect(await rowsOf([kept])).toBe(1);
  });

  it("works for aliases and is not_found for another user's link or an unknown code", async () => {
    const alias = `hist-${Math.random().toString(36).slice(2, 10)}`;
    await shorten("https://example.com/aliased", alias);
    expect((await history(alias)).total).toBe(0);
    for (const [token, code] of [
      [api.tokens[1], alias],
      [api.tokens[0], "zzzzzz"],
      [api.tokens[0], "no.such"],
    ] as const) {
      const resp = await call("GET", `/urls/${code}/clicks`, token);
      await expectErrorResponse(resp, 404, { code: "not_found", message: "URL not found" });
    }
    expect((await call("GET", `/urls/${alias}/clicks`)).status).toBe(401);
  });

  it.each(["0", "367", "2.5", "-1", "week"])("refuses days=%s with 400", async (days) => {
    const code = await shorten("https://example.com/window");
    const resp = await call("GET", `/urls/${code}/clicks?days=${days}`, api.tokens[0]);
    expect(resp.status).toBe(400);
    expect(await resp.json()).toMatchObject({ code: "invalid_argument" });
  });
});
