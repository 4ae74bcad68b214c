// Test helpers for the analytics service; in __tests__ so Encore does not bundle them.
import { randomInt, randomUUID } from "node:crypto";
import type { URLShortenedEvent } from "../../url/topic";
import { db } from "../db";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A UTC midnight no other test uses: tests share one database per run and other files create
 * links today, so counts on a random day in 2200-2999 belong to the test that picked it.
 */
export function privateMidnight(): Date {
  const start = Date.UTC(2200, 0, 1);
  return new Date(start + randomInt(0, 800 * 365) * DAY_MS);
}

/** An event for a link nobody else has, created at `timestamp`. */
export function newEvent(timestamp: Date): URLShortenedEvent {
  return { code: `t-${randomUUID()}`, originalUrl: "https://example.com/analytics-test", timestamp };
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
