// GET /urls/:code/clicks: when, from where and on what a link was followed, for its owner.
import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { isLinkCode } from "./alias";
import { callerID } from "./caller";
import { db } from "./db";
import { DEVICE_KINDS, type DeviceKind } from "./visit";

/** DEFAULT_DAYS is the window when the request names none. */
export const DEFAULT_DAYS = 30;

/** TOP_REFERRERS is how many referrer hosts are listed by name; the rest are summed as "other". */
export const TOP_REFERRERS = 10;

/** DIRECT is the referrer "host" of visits that named none (typed or pasted links, apps, privacy settings). */
export const DIRECT = "(direct)";

/** ClickHistoryRequest names the link and the window: the last `days` UTC days, today included. */
export interface ClickHistoryRequest {
  code: string;
  /** 1 to 366; 30 when absent. */
  days?: number & Min<1> & Max<366>;
}

/** DayClicks is one UTC day's clicks; date is "YYYY-MM-DD". */
export interface DayClicks {
  date: string;
  clicks: number;
}

/** ReferrerClicks counts the clicks from one referring host, "(direct)" for none, or "other". */
export interface ReferrerClicks {
  host: string;
  clicks: number;
}

/** DeviceClicks counts the clicks from one kind of device. */
export interface DeviceClicks {
  kind: DeviceKind;
  clicks: number;
}

/** ClickHistory is a link's clicks in the window, split three ways; each split sums to total. */
export interface ClickHistory {
  /** Every day of the window, oldest first, 0 for days without clicks. */
  days: DayClicks[];
  /** Most clicks first: the top 10 hosts, then "other" for the rest. */
  referrers: ReferrerClicks[];
  /** desktop, mobile, tablet and bot, always all four. */
  devices: DeviceClicks[];
  total: number;
}

interface HistoryRow {
  part: "day" | "referrer" | "device";
  label: string;
  clicks: number;
}

/**
 * clickHistory reports one of the caller's links, read in one statement so the three splits come from
 * one snapshot and always agree. Someone else's link is not_found, exactly like a missing one.
 */
export const clickHistory = api(
  { expose: true, auth: true, method: "GET", path: "/urls/:code/clicks" },
  async ({ code, days = DEFAULT_DAYS }: ClickHistoryRequest): Promise<ClickHistory> => {
    const creator = callerID();
    if (!Number.isInteger(days) || days < 1 || days > 366) {
      throw APIError.invalidArgument("days must be a whole number from 1 to 366");
    }
    const rows = isLinkCode(code)
      ? await db.queryAll<HistoryRow>`
          WITH link AS (SELECT id FROM urls WHERE code = ${code} AND creator = ${creator}),
          span AS (SELECT (now() AT TIME ZONE 'UTC')::date AS today, ${days}::int AS days),
          recent AS (
            SELECT c.day, c.host, c.device, c.clicks
            FROM link JOIN url_clicks c ON c.url_id = link.id CROSS JOIN span
            WHERE c.day > span.today - span.days
          ),
          -- Clicks written before migration 006, or by an instance of the previous version, are in
          -- the three old tables, one per split.
          by_day AS (
            SELECT day, clicks FROM recent
            UNION ALL
            SELECT d.day, d.clicks FROM link JOIN url_daily_clicks d ON d.url_id = link.id CROSS JOIN span
            WHERE d.day > span.today - span.days
          ),
          by_host AS (
            SELECT host, clicks FROM recent
            UNION ALL
            SELECT r.host, r.clicks FROM link JOIN url_referrer_clicks r ON r.url_id = link.id CROSS JOIN span
            WHERE r.day > span.today - span.days
          ),
          by_device AS (
            SELECT device, clicks FROM recent
            UNION ALL
            SELECT d.device, d.clicks FROM link JOIN url_device_clicks d ON d.url_id = link.id CROSS JOIN span
            WHERE d.day > span.today - span.days
          )
          SELECT 'day' AS part, to_char(span.today - g.n, 'YYYY-MM-DD') AS label, COALESCE(SUM(b.clicks), 0)::int8 AS clicks
          FROM link CROSS JOIN span CROSS JOIN generate_series(0, ${days}::int - 1) AS g (n)
          LEFT JOIN by_day b ON b.day = span.today - g.n
          GROUP BY span.today, g.n
          UNION ALL
          SELECT 'referrer', host, SUM(clicks)::int8 FROM by_host GROUP BY host
          UNION ALL
          SELECT 'device', device, SUM(clicks)::int8 FROM by_device GROUP BY device
          ORDER BY part, label
        `
      : [];
    const dayRows = rows.filter((r) => r.part === "day");
    // Every link has a row per day of the window, so none means no such link of the caller's.
    if (dayRows.length === 0) throw APIError.notFound("URL not found");
    return {
      days: dayRows.map((r) => ({ date: r.label, clicks: r.clicks })),
      referrers: topReferrers(rows.filter((r) => r.part === "referrer")),
      devices: DEVICE_KINDS.map((kind) => ({ kind, clicks: rows.find((r) => r.part === "device" && r.label === kind)?.clicks ?? 0 })),
      total: dayRows.reduce((sum, r) => sum + r.clicks, 0),
    };
  },
);

/** topReferrers lists the busiest hosts by name, most clicks first (ties by host), and sums the rest as "other". */
function topReferrers(rows: HistoryRow[]): ReferrerClicks[] {
  const sorted = rows
    .map((r) => ({ host: r.label === "" ? DIRECT : r.label, clicks: r.clicks }))
    .sort((a, b) => b.clicks - a.clicks || (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const top = sorted.slice(0, TOP_REFERRERS);
  const rest = sorted.slice(TOP_REFERRERS).reduce((sum, r) => sum + r.clicks, 0);
  return rest > 0 ? [...top, { host: "other", clicks: rest }] : top;
}
