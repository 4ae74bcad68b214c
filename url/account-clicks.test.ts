// GET /analytics/clicks: every link of the caller's together, nobody else's.
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import type { AccountClicks } from "./click-report-types";
import { serveApiForThisFile } from "./__tests__/helpers";

describeLocal("GET /analytics/clicks over HTTP", () => {
  const api = serveApiForThisFile(3);

  async function account(token: string, query = ""): Promise<AccountClicks> {
    const resp = await api.call("GET", `/analytics/clicks${query}`, token);
    expect(resp.status).toBe(200);
    return (await resp.json()) as AccountClicks;
  }

  async function shortenAndVisit(token: string, visits: number): Promise<string> {
    const resp = await api.call("POST", "/shorten", token, { url: `https://example.com/${visits}` });
    const { code } = (await resp.json()) as { code: string };
    for (let i = 0; i < visits; i++) await (await api.call("GET", `/${code}`)).arrayBuffer();
    return code;
  }

  it("reports zeros for every day of the range before any click, so a page can say what will appear", async () => {
    const report = await account(api.tokens[2], "?days=7");
    expect(report.days).toHaveLength(7);
    expect(report).toMatchObject({
      total: 0,
      uniqueVisitors: 0,
      referrers: [],
      countries: [],
      browsers: [],
      os: [],
      campaigns: [],
      topLinks: [],
    });
    expect(report.devices.every((d) => d.clicks === 0) && report.sources.every((s) => s.clicks === 0)).toBe(true);
  });

  it("sums all the caller's links, names the 10 with most clicks, and leaves other users' clicks out", async () => {
    const codes: string[] = [];
    for (let visits = 1; visits <= 12; visits++) codes.push(await shortenAndVisit(api.tokens[0], visits));
    await shortenAndVisit(api.tokens[1], 5);

    const report = await account(api.tokens[0], "?days=1");
    expect(report.total).toBe((12 * 13) / 2);
    expect(report.topLinks).toHaveLength(10);
    expect(report.topLinks[0]).toEqual({ code: codes[11], clicks: 12, uniqueVisitors: 0 });
    expect(report.topLinks[9]).toEqual({ code: codes[2], clicks: 3, uniqueVisitors: 0 });
    expect(report.devices.find((d) => d.kind === "bot")?.clicks).toBe(78);
    expect((await account(api.tokens[1], "?days=1")).total).toBe(5);
  });

  it("takes from and to, and refuses a bad range or no token", async () => {
    expect((await account(api.tokens[0], "?from=2026-02-27&to=2026-03-02")).days.map((d) => d.date)).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
    await expectErrorResponse(await api.call("GET", "/analytics/clicks?from=2026-03-02&to=2026-02-27", api.tokens[0]), 400, {
      code: "invalid_argument",
      message: "from must not be after to",
    });
    expect((await api.call("GET", "/analytics/clicks")).status).toBe(401);
  });
});
