// Migration 006 folds the three click-history tables into one without changing any count they held.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { databaseAtMigration, describeLocal, type MigratingDatabase } from "../local/testing";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** One link's history for one day, as the three old tables held it. */
interface OldDay {
  day: string;
  referrers: Record<string, number>;
  devices: Record<string, number>;
}

const sumOf = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Inserts a link with the given old-style history; resolves with its id. */
async function linkWithHistory(db: MigratingDatabase, code: string, days: OldDay[], dailyTotal = sumOf): Promise<number> {
  const [{ id }] = await db.query("INSERT INTO urls (code, original_url) VALUES ($1, 'https://example.com/') RETURNING id", code);
  for (const { day, referrers, devices } of days) {
    await db.query("INSERT INTO url_daily_clicks (url_id, day, clicks) VALUES ($1, $2, $3)", id, day, dailyTotal(referrers));
    for (const [host, n] of Object.entries(referrers)) {
      await db.query("INSERT INTO url_referrer_clicks (url_id, day, host, clicks) VALUES ($1, $2, $3, $4)", id, day, host, n);
    }
    for (const [device, n] of Object.entries(devices)) {
      await db.query("INSERT INTO url_device_clicks (url_id, day, device, clicks) VALUES ($1, $2, $3, $4)", id, day, device, n);
    }
  }
  return id as number;
}

/** A link's merged history summed by one column, as {value: clicks}. */
async function sumsBy(db: MigratingDatabase, id: number, day: string, by: "host" | "device"): Promise<Record<string, number>> {
  const rows = await db.query(
    `SELECT ${by} AS key, SUM(clicks)::int AS clicks FROM url_clicks WHERE url_id = $1 AND day = $2 GROUP BY ${by}`,
    id,
    day,
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.clicks]));
}

describeLocal("migration 006: one click-history table", () => {
  let db: MigratingDatabase | undefined;
  afterEach(async () => {
    await db?.close();
    db = undefined;
  });

  it("keeps every day's, referrer's and device's count of every link", async () => {
    db = await databaseAtMigration(migrationsDir, 5);
    const history: Record<string, OldDay[]> = {
      mixed: [
        { day: "2026-11-01", referrers: { "": 3, "news.example.com": 5, "t.co": 2 }, devices: { desktop: 4, mobile: 6 } },
        { day: "2026-11-02", referrers: { "x.example": 1 }, devices: { bot: 1 } },
        { day: "2026-11-03", referrers: { "a.example": 1, "b.example": 1, "c.example": 1 }, devices: { tablet: 2, mobile: 1 } },
      ],
      single: [{ day: "2026-11-01", referrers: { "": 7 }, devices: { desktop: 2, mobile: 2, tablet: 3 } }],
      none: [],
    };
    const ids = Object.fromEntries(
      await Promise.all(Object.entries(history).map(async ([code, days]) => [code, await linkWithHistory(db!, code, days)] as const)),
    );

    expect(await db.migrateRest()).toEqual([6]);

    for (const [code, days] of Object.entries(history)) {
      for (const { day, referrers, devices } of days) {
        expect(await sumsBy(db, ids[code], day, "host"), `${code} on ${day}`).toEqual(referrers);
        expect(await sumsBy(db, ids[code], day, "device"), `${code} on ${day}`).toEqual(devices);
      }
    }
    expect(await db.query("SELECT COUNT(*)::int AS n FROM url_clicks WHERE url_id = $1", ids.none)).toEqual([{ n: 0 }]);
    expect(await db.query("SELECT SUM(clicks)::int AS n FROM url_clicks")).toEqual([{ n: 10 + 1 + 3 + 7 }]);
    expect(
      await db.query(
        "SELECT to_regclass('url_daily_clicks') IS NULL AND to_regclass('url_referrer_clicks') IS NULL AND to_regclass('url_device_clicks') IS NULL AS gone",
      ),
    ).toEqual([{ gone: true }]);
  });

  it("refuses a history whose splits disagree, and keeps it as it was", async () => {
    db = await databaseAtMigration(migrationsDir, 5);
    const day = { day: "2026-11-01", referrers: { "": 5 }, devices: { desktop: 4 } };
    const id = await linkWithHistory(db, "skewed", [day], () => 5);

    await expect(db.migrateRest()).rejects.toThrow("click history disagrees with itself");
    expect(await db.query("SELECT clicks FROM url_device_clicks WHERE url_id = $1", id)).toEqual([{ clicks: 4 }]);
    expect(await db.query("SELECT to_regclass('url_clicks') IS NULL AS absent")).toEqual([{ absent: true }]);
  });
});
