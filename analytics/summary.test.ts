import { randomInt, randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { url } from "~encore/clients";
import { describeLocal, drainTopic, useTestServer } from "../local/testing";
import { db as urlDb } from "../url/db";
import { db } from "./db";
import type { SummaryResponse } from "./summary";
import "./track";

/** Reads the url and analytics tables directly, to compare with what the endpoint reports. */
async function stored(): Promise<SummaryResponse> {
  const urls = await urlDb.queryRow<{ links: number; clicks: number }>`
    SELECT COUNT(*)::int AS links, COALESCE(SUM(clicks), 0)::int AS clicks FROM urls`;
  const counted = await db.queryRow<{ n: number }>`SELECT COALESCE(SUM(urls_created), 0)::int AS n FROM daily_stats`;
  return { linksCreated: counted!.n, activeLinks: urls!.links, totalClicks: urls!.clicks };
}

/** Expects each reported number to lie between the stored values read just before and after. */
function expectBetween(reported: SummaryResponse, before: SummaryResponse, after: SummaryResponse) {
  for (const key of ["linksCreated", "activeLinks", "totalClicks"] as const) {
    expect(typeof reported[key]).toBe("number");
    expect(reported[key]).toBeGreaterThanOrEqual(Math.min(before[key], after[key]));
    expect(reported[key]).toBeLessThanOrEqual(Math.max(before[key], after[key]));
  }
}

describeLocal("GET /analytics/summary over HTTP", () => {
  const server = useTestServer();

  async function summary(): Promise<SummaryResponse> {
    const resp = await fetch(`${server.baseUrl}/analytics/summary`);
    expect(resp.status).toBe(200);
    return (await resp.json()) as SummaryResponse;
  }

  it("combines analytics history with the url service's current totals, as JSON numbers", async () => {
    const user = { userID: String(randomInt(1e9, 2 ** 47)), email: `${randomUUID()}@example.com` };
    const { code } = await url.shorten({ url: "https://example.com/summary" }, { authData: user });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/${code}`)).status).toBe(200);
    await drainTopic("url-shortened");

    const before = await stored();
    const reported = await summary();
    const after = await stored();

    expectBetween(reported, before, after);
    expect(reported.activeLinks).toBeGreaterThanOrEqual(1);
    expect(reported.totalClicks).toBeGreaterThanOrEqual(3);
    expect(reported.linksCreated).toBeGreaterThanOrEqual(1);
  });

  it("keeps the url service's totals endpoint private", async () => {
    const resp = await fetch(`${server.baseUrl}/internal/totals`);
    expect(resp.status).toBe(404);
    expect(((await resp.json()) as { code: string }).code).toBe("not_found");
  });
});
