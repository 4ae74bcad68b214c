// Test helpers for the analytics service; in __tests__ so Encore does not bundle them.
import { randomInt, randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { URLShortenedEvent } from "../../url/topic";
import { db } from "../db";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The days privateMidnight draws from: 2200-01-01 to 9899-12-31, leaving tests a century to add to a day before years lose the ISO day format. */
const PRIVATE_DAYS = { first: Date.UTC(2200, 0, 1), count: (Date.UTC(9900, 0, 1) - Date.UTC(2200, 0, 1)) / DAY_MS };

/**
 * A UTC midnight no other test uses: tests share one database per run and other files create
 * links today, so counts on a random day among 2.8 million belong to the test that picked it.
 */
export function privateMidnight(): Date {
  return new Date(PRIVATE_DAYS.first + randomInt(0, PRIVATE_DAYS.count) * DAY_MS);
}

/** An event for a link nobody else has, created at `timestamp`; its code starts with the test's name, so a stray count says whose it is. */
export function newEvent(timestamp: Date): URLShortenedEvent {
  const test = (expect.getState().currentTestName ?? "").replace(/[^A-Za-z0-9]+/g, "-").slice(-40);
  return { code: `t-${test}-${randomUUID()}`, originalUrl: "https://example.com/analytics-test", timestamp };
}

/** What daily_stats says for `day` ("YYYY-MM-DD"), 0 without a row. */
export async function countOn(day: string): Promise<number> {
  const row = await db.queryRow<{ n: number }>`SELECT urls_created AS n FROM daily_stats WHERE date = ${day}::date`;
  return row?.n ?? 0;
}

/** How many times the link with this code was recorded as counted (0 or 1 if idempotency holds). */
export async function timesCounted(code: string): Promise<number> {
  const row = await db.queryRow<{ n: number }>`SELECT COUNT(*)::int AS n FROM counted_urls WHERE code = ${code}`;
  return row?.n ?? 0;
}

/** The UTC day each code was counted on, for codes that were counted. */
export async function countedDays(codes: string[]): Promise<Map<string, string>> {
  const rows = await db.queryAll<{ code: string; day: string }>`
    SELECT code, to_char(day, 'YYYY-MM-DD') AS day FROM counted_urls WHERE code = ANY(${codes}::text[])`;
  return new Map(rows.map((r) => [r.code, r.day]));
}

/** The codes counted on `day` ("YYYY-MM-DD"), sorted: what a test names when a day holds more than its own links. */
export async function codesCountedOn(day: string): Promise<string[]> {
  const rows = await db.queryAll<{ code: string }>`SELECT code FROM counted_urls WHERE day = ${day}::date`;
  return rows.map((r) => r.code).sort();
}

/**
 * daily_stats for `day` and the number of links counted on it, read in one statement (one
 * snapshot): the handler writes both in one transaction, so they must always be equal.
 */
export async function dayLedger(day: string): Promise<{ stats: number; counted: number }> {
  const row = await db.queryRow<{ stats: number; counted: number }>`
    SELECT COALESCE((SELECT urls_created FROM daily_stats WHERE date = ${day}::date), 0) AS stats,
           (SELECT COUNT(*)::int FROM counted_urls WHERE day = ${day}::date) AS counted`;
  return row!;
}
