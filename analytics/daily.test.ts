import { expect, it } from "vitest";
import { describeLocal, useTestServer } from "../local/testing";
import { db } from "./db";
import { utcDay } from "../lib/utc-day";
import { trackShortened } from "./track";
import type { DailyResponse } from "./daily";
import { newEvent } from "./__tests__/helpers";

const DAY_MS = 24 * 60 * 60 * 1000;

describeLocal("GET /analytics/daily over HTTP", () => {
  const server = useTestServer();

  async function get(query: string): Promise<Response> {
    return fetch(`${server.baseUrl}/analytics/daily${query}`);
  }

  async function daily(query: string): Promise<DailyResponse> {
    const resp = await get(query);
    expect(resp.status).toBe(200);
    return (await resp.json()) as DailyResponse;
  }

  /** The UTC days from `days - 1` days ago to today, oldest first. */
  function window(days: number, now: Date): string[] {
    return Array.from({ length: days }, (_, i) => utcDay(new Date(now.getTime() - (days - 1 - i) * DAY_MS)));
  }

  it("returns the last 30 UTC days by default, oldest first, ending today", async () => {
    const before = new Date();
    const body = await daily("");
    const after = new Date();

    expect(Object.keys(body).sort()).toEqual(["days", "total"]);
    expect(body.days).toHaveLength(30);
    for (const entry of body.days) {
      expect(Object.keys(entry).sort()).toEqual(["date", "urlsCreated"]);
      expect(typeof entry.urlsCreated).toBe("number");
    }
    const dates = body.days.map((d) => d.date);
    // Either side of a UTC midnight that passed during the request.
    expect([window(30, before), window(30, after)]).toContainEqual(dates);
    expect(body.total).toBe(body.days.reduce((sum, d) => sum + d.urlsCreated, 0));
  });

  it("reports every day as stored, zero for days without links", async () => {
    // One link 12 days ago so the window holds a counted day among empty ones.
    const counted = newEvent(new Date(Date.now() - 12 * DAY_MS));
    await trackShortened(counted);

    const body = await daily("?days=20");
    const stored = await db.queryAll<{ date: string; n: number }>`
      SELECT to_char(date, 'YYYY-MM-DD') AS date, urls_created AS n FROM daily_stats
      WHERE date >= ${body.days[0].date}::date AND date < ${body.days[19].date}::date`;
    const storedByDay = new Map(stored.map((r) => [r.date, r.n]));

    expect(body.days).toHaveLength(20);
    const pastDays = body.days.slice(0, -1); // today may change under other tests' feet
    expect(pastDays.map((d) => d.urlsCreated)).toEqual(pastDays.map((d) => storedByDay.get(d.date) ?? 0));
    expect(body.days.find((d) => d.date === utcDay(counted.timestamp))?.urlsCreated).toBeGreaterThanOrEqual(1);
    expect(pastDays.some((d) => !storedByDay.has(d.date) && d.urlsCreated === 0)).toBe(true);
  });

  it("accepts 1 and 366 days", async () => {
    expect((await daily("?days=1")).days).toHaveLength(1);
    expect((await daily("?days=1")).days[0].date).toBe(utcDay(new Date()));
    expect((await daily("?days=366")).days).toHaveLength(366);
  });

  it.each(["0", "367", "-1", "1.5", "abc", "1e9"])("rejects days=%s with 400 invalid_argument", async (days) => {
    const resp = await get(`?days=${days}`);
    expect(resp.status).toBe(400);
    const body = (await resp.json()) as { code: string; message: string };
    expect(body.code).toBe("invalid_argument");
    expect(body.message).not.toBe("");
  });
});
