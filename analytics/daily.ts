import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { db } from "./db";
import { utcDay } from "../lib/utc-day";

export interface DailyParams {
  /** How many UTC days to return, ending today. */
  days?: number & (Min<1> & Max<366>);
}

export interface DayCount {
  /** UTC day, "YYYY-MM-DD". */
  date: string;
  urlsCreated: number;
}

export interface DailyResponse {
  /** One entry per day, oldest first, zero for days without links. */
  days: DayCount[];
  /** Sum of urlsCreated over the returned days. */
  total: number;
}

const DEFAULT_DAYS = 30;

/** Links shortened per UTC day over the last `days` days (default 30, at most 366). */
export const daily = api(
  { expose: true, method: "GET", path: "/analytics/daily" },
  async ({ days = DEFAULT_DAYS }: DailyParams): Promise<DailyResponse> => {
    if (!Number.isInteger(days)) throw APIError.invalidArgument("days must be a whole number");
    // "Today" is the app's UTC day, the same clock that stamps events.
    const today = utcDay(new Date());
    const rows = await db.queryAll<DayCount>`
      SELECT to_char(${today}::date - back, 'YYYY-MM-DD') AS date,
             COALESCE(s.urls_created, 0) AS "urlsCreated"
      FROM generate_series(${days - 1}::int, 0, -1) AS back
      LEFT JOIN daily_stats s ON s.date = ${today}::date - back
      ORDER BY back DESC`;
    return { days: rows, total: rows.reduce((sum, d) => sum + d.urlsCreated, 0) };
  },
);
