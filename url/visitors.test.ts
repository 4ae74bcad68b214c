// The day's key behind unique visitors, the hash, and how long hashes are kept.
import { afterEach, describe, expect, it, vi } from "vitest";
import log from "encore.dev/log";
import { captureLogs } from "../local/testing";
import { addDays, utcDay } from "../lib/utc-day";
import { cleanupStaleUrls } from "./cleanup";
import { db } from "./db";
import { DEFAULT_RETENTION_DAYS, fetchKey, visitorHash, visitorHashRetentionDays } from "./visitors";
import { holdCleanupTurnForThisFile } from "./__tests__/helpers";

holdCleanupTurnForThisFile();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The days visitor_keys holds among `days`. */
async function keyDays(days: string[]): Promise<string[]> {
  const rows = await db.queryAll<{ day: string }>`SELECT day::text AS day FROM visitor_keys WHERE day = ANY(${days}::date[]) ORDER BY day`;
  return rows.map((r) => r.day);
}

describe("the day's visitor key", () => {
  it("is made once and shared: instances asking at the same time all get the same random key", async () => {
    // Days long past, so the real day's key (which other test files use) is left alone.
    const keys = await Promise.all(Array.from({ length: 8 }, () => fetchKey("2001-01-01")));
    expect(keys[0]).toHaveLength(32);
    expect(new Set(keys.map((k) => k.toString("hex"))).size).toBe(1);
    expect((await fetchKey("2001-01-02")).equals(keys[0])).toBe(false);
  });

  it("deletes the keys of earlier days when a day's key is made", async () => {
    await fetchKey("2001-02-01");
    await fetchKey("2001-02-02");
    expect(await keyDays(["2001-02-01", "2001-02-02"])).toEqual(["2001-02-02"]);
  });
});

describe("visitorHash", () => {
  it("differs by day, link and visitor, and says nothing of its input", () => {
    const key = Buffer.alloc(32, 7);
    const base = visitorHash(key, "2026-03-01", "abc123", "203.0.113.9\nUA");
    expect(base).toMatch(/^[0-9a-f]{32}$/);
    expect(visitorHash(key, "2026-03-01", "abc123", "203.0.113.9\nUA")).toBe(base);
    for (const other of [
      visitorHash(key, "2026-03-02", "abc123", "203.0.113.9\nUA"),
      visitorHash(key, "2026-03-01", "abc124", "203.0.113.9\nUA"),
      visitorHash(key, "2026-03-01", "abc123", "203.0.113.8\nUA"),
      visitorHash(Buffer.alloc(32, 8), "2026-03-01", "abc123", "203.0.113.9\nUA"),
    ]) {
      expect(other).not.toBe(base);
    }
  });
});

describe("visitor hash retention", () => {
  it("reads VISITOR_HASH_RETENTION_DAYS, 30 by default, and logs a bad value", () => {
    expect(visitorHashRetentionDays()).toBe(DEFAULT_RETENTION_DAYS);
    vi.stubEnv("VISITOR_HASH_RETENTION_DAYS", "7");
    expect(visitorHashRetentionDays()).toBe(7);
    vi.stubEnv("VISITOR_HASH_RETENTION_DAYS", "0");
    expect(visitorHashRetentionDays()).toBe(0);
    const error = vi.spyOn(log, "error");
    captureLogs({ level: "ERR", msg: /^invalid VISITOR_HASH_RETENTION_DAYS="a month"/ });
    vi.stubEnv("VISITOR_HASH_RETENTION_DAYS", "a month");
    expect(visitorHashRetentionDays()).toBe(DEFAULT_RETENTION_DAYS);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('invalid VISITOR_HASH_RETENTION_DAYS="a month"'));
  });

  it("lets the cleanup job delete hashes older than the window and past days' keys, keeping the counts", async () => {
    vi.stubEnv("VISITOR_HASH_RETENTION_DAYS", "10");
    const today = utcDay(new Date());
    const urlId = 2_000_000_000 - Math.floor(Math.random() * 1e6); // hashes need no link row
    const days = [11, 10, 0].map((back) => addDays(today, -back));
    await db.exec`
      INSERT INTO url_visitors (day, url_id, visitor)
      SELECT d::date, ${urlId}, decode(md5(d || n::text), 'hex') FROM unnest(${days}::text[]) AS d, generate_series(1, 3) AS n`;
    await fetchKey("2001-03-01");

    await cleanupStaleUrls();

    const left = await db.queryAll<{ day: string; n: number }>`
      SELECT day::text AS day, count(*)::int AS n FROM url_visitors WHERE url_id = ${urlId} GROUP BY day ORDER BY day`;
    expect(left).toEqual([
      { day: days[1], n: 3 },
      { day: days[2], n: 3 },
    ]);
    expect(await keyDays(["2001-03-01"])).toEqual([]);
  });
});
