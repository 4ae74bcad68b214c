// Clicks are group-committed: concurrent resolves share one statement that counts them all, with
// everything the click history reports about them.
import { db } from "./db";
import { GroupCommit } from "../lib/group-commit";
import { utcDay } from "../lib/utc-day";
import type { Resolution } from "./resolution";
import type { Visit } from "./visit";
import { visitorHash, visitorKey } from "./visitors";

/** Click is one GET of a short link. */
export interface Click extends Visit {
  code: string;
}

/**
 * MAX_CLICKS_PER_BATCH bounds one statement. Clicks are summed per link and per combination of what
 * they record before they are sent, so a popular link adds a row per kind of visit, however many clicks.
 */
export const MAX_CLICKS_PER_BATCH = 1000;

/** The batch's clicks summed per link and visit, as the statement's parallel arrays (one entry per group). */
interface ClickGroups {
  code: string[];
  host: string[];
  device: string[];
  country: string[];
  browser: string[];
  os: string[];
  source: string[];
  campaign: string[];
  n: number[];
}

/** The batch's visitors: one hash per visitor of a link (it names both), with the (1-based) group of their first click. */
interface BatchVisitors {
  group: number[];
  hash: string[];
}

function groupClicks(clicks: Click[], day: string, key: Buffer | null): { groups: ClickGroups; visitors: BatchVisitors } {
  const groups: ClickGroups = { code: [], host: [], device: [], country: [], browser: [], os: [], source: [], campaign: [], n: [] };
  const visitors: BatchVisitors = { group: [], hash: [] };
  const groupOf = new Map<string, number>();
  const seen = new Set<string>();
  for (const c of clicks) {
    const groupKey = `${c.code}\0${c.referrerHost}\0${c.device}\0${c.country}\0${c.browser}\0${c.os}\0${c.source}\0${c.campaign}`;
    let i = groupOf.get(groupKey);
    if (i === undefined) {
      i = groups.n.push(0) - 1;
      groupOf.set(groupKey, i);
      groups.code.push(c.code);
      groups.host.push(c.referrerHost);
      groups.device.push(c.device);
      groups.country.push(c.country);
      groups.browser.push(c.browser);
      groups.os.push(c.os);
      groups.source.push(c.source);
      groups.campaign.push(c.campaign);
    }
    groups.n[i]++;
    if (key !== null && c.visitor !== null) {
      const hash = visitorHash(key, day, c.code, c.visitor);
      if (!seen.has(hash)) {
        seen.add(hash);
        visitors.group.push(i + 1);
        visitors.hash.push(hash);
      }
    }
  }
  return { groups, visitors };
}

/**
 * writeClicks counts a batch of clicks in one statement (one implicit transaction) and returns each
 * click's resolution: its link's target, or why there is none (no such link, or one past its expiry,
 * which counts nothing from the instant it expires). All of the batch's clicks fall on one UTC day, the
 * day it is written (this process's clock). In order, the statement:
 *
 * 1. locks the links' rows in code order, so two instances writing overlapping batches wait for each
 *    other instead of deadlocking; everything below a link writes is written under its lock;
 * 2. adds each link's clicks to `urls.clicks` and sets `last_clicked_at`;
 * 3. adds each visitor's hash to url_visitors: a hash already there is a visitor seen today;
 * 4. adds each group's clicks, and its visitors new today, to the link's row of the day for that
 *    combination of referrer host, device, country, browser, system, source and campaign (url_click_facts);
 * 5. answers each code; only a code it did not count is looked up again, to tell an expired link from
 *    a missing one (a join for every code took 0.3 of 5.3 ms for 64 clicks).
 *
 * Either everything in the batch is counted or nothing is. Exported so a test can run two instances'
 * batches against each other.
 */
export async function writeClicks(clicks: Click[]): Promise<Resolution[]> {
  const day = utcDay(new Date());
  // Bots are no visitors: a batch of bots alone needs no key, and so never waits for one.
  const key = clicks.some((c) => c.visitor !== null) ? await visitorKey(day) : null;
  const { groups: g, visitors: v } = groupClicks(clicks, day, key);
  const rows = await db.queryAll<{ code: string; original_url: string | null; expired: boolean }>`
    WITH batch AS MATERIALIZED (
      SELECT * FROM unnest(${g.code}::text[], ${g.host}::text[], ${g.device}::text[], ${g.country}::text[], ${g.browser}::text[],
                           ${g.os}::text[], ${g.source}::text[], ${g.campaign}::text[], ${g.n}::int[])
        WITH ORDINALITY AS b (code, host, device, country, browser, os, source, campaign, n, grp)
    ),
    visits AS MATERIALIZED (
      SELECT grp, decode(hash, 'hex') AS visitor FROM unnest(${v.group}::int8[], ${v.hash}::text[]) AS v (grp, hash)
    ),
    locked AS MATERIALIZED (
      SELECT id, code FROM urls
      WHERE code IN (SELECT code FROM batch) AND (expires_at IS NULL OR expires_at > now())
      ORDER BY code FOR UPDATE
    ),
    counted AS (
      UPDATE urls SET clicks = urls.clicks + per_link.n, last_clicked_at = now()
      FROM (SELECT locked.id, SUM(batch.n)::int AS n FROM locked JOIN batch USING (code) GROUP BY locked.id) AS per_link
      WHERE urls.id = per_link.id
      RETURNING urls.id, urls.code, urls.original_url
    ),
    first_today AS (
      INSERT INTO url_visitors (day, url_id, visitor)
      SELECT ${day}::date, counted.id, visits.visitor FROM visits JOIN batch USING (grp) JOIN counted USING (code)
      ON CONFLICT DO NOTHING
      RETURNING visitor
    ),
    -- A hash names its link as well as its visitor, so it finds the group of the click it came with.
    new_visitors AS (
      SELECT visits.grp, count(*)::int AS n FROM first_today JOIN visits USING (visitor) GROUP BY visits.grp
    ),
    history AS (
      INSERT INTO url_click_facts AS f (url_id, day, host, device, country, browser, os, source, campaign, clicks, visitors)
      SELECT counted.id, ${day}::date, batch.host, batch.device, batch.country, batch.browser, batch.os, batch.source, batch.campaign,
             batch.n, COALESCE(new_visitors.n, 0)
      FROM counted JOIN batch USING (code) LEFT JOIN new_visitors USING (grp)
      ON CONFLICT (url_id, day, host, device, country, browser, os, source, campaign)
      DO UPDATE SET clicks = f.clicks + EXCLUDED.clicks, visitors = f.visitors + EXCLUDED.visitors
    )
    SELECT asked.code, counted.original_url,
           counted.code IS NULL AND EXISTS (SELECT FROM urls WHERE urls.code = asked.code AND urls.expires_at <= now()) AS expired
    FROM (SELECT DISTINCT code FROM batch) AS asked
    LEFT JOIN counted USING (code)
  `;
  const byCode = new Map(
    rows.map((r): [string, Resolution] => [
      r.code,
      r.original_url !== null ? { target: r.original_url } : { gone: r.expired ? "expired" : "not_found" },
    ]),
  );
  return clicks.map((c) => byCode.get(c.code) ?? { gone: "not_found" });
}

/** This instance's click queue: one batch statement in flight at a time. */
const clickQueue = new GroupCommit(writeClicks, MAX_CLICKS_PER_BATCH, "clicks");

/**
 * countClick counts one click and returns where its link leads. It settles only once the statement
 * holding the click has committed, so an answered visit is a counted one.
 */
export function countClick(click: Click): Promise<Resolution> {
  return clickQueue.submit(click);
}
