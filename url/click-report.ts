// Click reports: a link's clicks, or all of an owner's, over a range of UTC days, per day and split by
// each dimension a click records; the figures are read in one statement, so every split sums to the same total.
import type { ClickRange } from "./click-range";
import { db } from "./db";
import type { ClickReport, DeviceKind, LinkClicks, NamedClicks } from "./click-report-types";
import { SOURCES } from "./visit";

/** DEVICE_KINDS lists every DeviceKind, in the order reports list them. */
const DEVICE_KINDS: readonly DeviceKind[] = ["desktop", "mobile", "tablet", "bot"];

/** TOP is how many values of a dimension are listed by name; the rest are summed as "other". */
export const TOP = 10;

/** DIRECT is the referrer "host" of visits that named none (typed or pasted links, apps, privacy settings). */
const DIRECT = "(direct)";

/** UNKNOWN names a browser or system the User-Agent library does not recognise. */
const UNKNOWN = "(unknown)";

/** NO_CAMPAIGN names the visits whose query had no UTM parameter. */
const NO_CAMPAIGN = "(none)";

/** How reports name a value stored empty: no Referer, a browser or system not recognised, no UTM parameters. */
const EMPTY_VALUE: Partial<Record<string, string>> = { referrer: DIRECT, browser: UNKNOWN, os: UNKNOWN, campaign: NO_CAMPAIGN };

/** valueLabel is how reports (JSON and CSV) name a stored value of a dimension. */
export function valueLabel(dimension: string, value: string): string {
  return value === "" ? (EMPTY_VALUE[dimension] ?? "") : value;
}

/** Links is whose links a report covers: a workspace's, or one of them. */
export interface Links {
  workspaceId: string;
  /** One link of the workspace's; null for all of them. */
  code: string | null;
}

/** A row of the report statement: a day, a dimension's value, or a link (by id). */
interface ReportRow {
  part: "day" | "link" | "referrer" | "device" | "country" | "browser" | "os" | "source" | "campaign";
  label: string;
  clicks: number;
  visitors: number;
}

/** ReadReport is a report with how many links it covers (0: the owner has no such link) and each link's share, most first. */
export interface ReadReport {
  links: number;
  report: ClickReport;
  byLink: LinkClicks[];
}

/**
 * readClickReport reads the report of `links` over `range`. A code the workspace has no link under
 * covers no links. The links are read first
 * and their ids passed as an array: PostgreSQL pushes `url_id = ANY($1)` into each branch of the view,
 * where it reads each table's primary key, but not a join condition (it scanned every table then).
 */
export async function readClickReport(links: Links, range: ClickRange): Promise<ReadReport> {
  const owned = await db.queryAll<{ id: number; code: string }>`
    SELECT id, code FROM urls WHERE workspace_id = ${links.workspaceId}::text::bigint AND (${links.code}::text IS NULL OR code = ${links.code}::text)
  `;
  const rows = await db.queryAll<ReportRow>`
    WITH clicks AS (
      SELECT url_id, day, dimension, value, clicks, visitors FROM url_click_dimensions
      WHERE url_id = ANY(${owned.map((l) => l.id)}::int[]) AND day BETWEEN ${range.from}::date AND ${range.to}::date
    )
    -- Every click has exactly one source, so the source rows count each click once.
    SELECT 'day' AS part, to_char(g.day, 'YYYY-MM-DD') AS label, COALESCE(SUM(c.clicks), 0)::int8 AS clicks,
           COALESCE(SUM(c.visitors), 0)::int8 AS visitors
    FROM generate_series(${range.from}::date, ${range.to}::date, interval '1 day') AS g (day)
    LEFT JOIN clicks c ON c.day = g.day AND c.dimension = 'source'
    GROUP BY g.day
    UNION ALL
    SELECT 'link', url_id::text, SUM(clicks)::int8, SUM(visitors)::int8 FROM clicks WHERE dimension = 'source' GROUP BY url_id
    UNION ALL
    SELECT dimension, value, SUM(clicks)::int8, SUM(visitors)::int8 FROM clicks GROUP BY dimension, value
  `;
  const part = (name: ReportRow["part"]) => rows.filter((r) => r.part === name);
  const days = part("day")
    .map((r) => ({ date: r.label, clicks: r.clicks, uniqueVisitors: r.visitors }))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  const valueClicks = (name: ReportRow["part"]) => part(name).map((r) => ({ name: valueLabel(name, r.label), clicks: r.clicks }));
  const report: ClickReport = {
    from: range.from,
    to: range.to,
    days,
    referrers: topWithOther(valueClicks("referrer")).map(({ name, clicks }) => ({ host: name, clicks })),
    devices: DEVICE_KINDS.map((kind) => ({ kind, clicks: part("device").find((r) => r.label === kind)?.clicks ?? 0 })),
    countries: topWithOther(valueClicks("country")),
    browsers: topWithOther(valueClicks("browser")),
    os: topWithOther(valueClicks("os")),
    sources: SOURCES.map((name) => ({ name, clicks: part("source").find((r) => r.label === name)?.clicks ?? 0 })),
    campaigns: topWithOther(valueClicks("campaign")),
    total: days.reduce((sum, d) => sum + d.clicks, 0),
    uniqueVisitors: days.reduce((sum, d) => sum + d.uniqueVisitors, 0),
  };
  const codeOf = new Map(owned.map((l) => [String(l.id), l.code]));
  const byLink = part("link")
    .map((r) => ({ code: codeOf.get(r.label)!, clicks: r.clicks, uniqueVisitors: r.visitors }))
    .sort((a, b) => b.clicks - a.clicks || compareText(a.code, b.code));
  return { links: owned.length, report, byLink };
}

/** topWithOther lists the TOP values with most clicks by name (ties by name) and sums the rest as "other". */
function topWithOther(values: NamedClicks[]): NamedClicks[] {
  const sorted = [...values].sort((a, b) => b.clicks - a.clicks || compareText(a.name, b.name));
  const rest = sorted.slice(TOP).reduce((sum, v) => sum + v.clicks, 0);
  return rest > 0 ? [...sorted.slice(0, TOP), { name: "other", clicks: rest }] : sorted.slice(0, TOP);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
