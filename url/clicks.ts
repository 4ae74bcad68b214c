// Clicks are group-committed: concurrent resolves share one statement that counts them all, with
// everything the click history reports about them.
import { db } from "./db";
import { GroupCommit } from "../lib/group-commit";
import { utcDay } from "../lib/utc-day";
import { targetFor } from "./device-targets";
import type { Gone, Resolution } from "./resolution";
import type { Visit } from "./visit";
import { visitorHash, visitorKey } from "./visitors";

/** Click is one GET of a short link. */
export interface Click extends Visit {
  code: string;
  /** Set on a visit that gave the link's password (POST /:code/unlock): only such a visit counts on a protected link. */
  unlocked?: boolean;
  /** Set on a visit that may skip a flagged link's warning: one that continued past it, or an API client's. */
  warned?: boolean;
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
  unlocked: boolean[];
  warned: boolean[];
  n: number[];
}

/**
 * The batch's visitors: one hash per visitor of a link (it names both), with the (1-based) group of their
 * first click and that click's (1-based) place in its group, so a visitor whose click the limit refused
 * is not counted.
 */
interface BatchVisitors {
  group: number[];
  ord: number[];
  hash: string[];
}

/** The batch grouped: the statement's arrays, and each click's (0-based) group. */
interface GroupedClicks {
  groups: ClickGroups;
  visitors: BatchVisitors;
  groupOfClick: number[];
}

function groupClicks(clicks: Click[], day: string, key: Buffer | null): GroupedClicks {
  const groups: ClickGroups = {
    code: [],
    host: [],
    device: [],
    country: [],
    browser: [],
    os: [],
    source: [],
    campaign: [],
    unlocked: [],
    warned: [],
    n: [],
  };
  const visitors: BatchVisitors = { group: [], ord: [], hash: [] };
  const groupOfClick: number[] = [];
  const groupOf = new Map<string, number>();
  const seen = new Set<string>();
  for (const c of clicks) {
    const unlocked = c.unlocked === true;
    const warned = c.warned === true;
    const groupKey = `${c.code}\0${c.referrerHost}\0${c.device}\0${c.country}\0${c.browser}\0${c.os}\0${c.source}\0${c.campaign}\0${unlocked}\0${warned}`;
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
      groups.unlocked.push(unlocked);
      groups.warned.push(warned);
    }
    groups.n[i]++;
    groupOfClick.push(i);
    if (key !== null && c.visitor !== null) {
      const hash = visitorHash(key, day, c.code, c.visitor);
      if (!seen.has(hash)) {
        seen.add(hash);
        visitors.group.push(i + 1);
        visitors.ord.push(groups.n[i]);
        visitors.hash.push(hash);
      }
    }
  }
  return { groups, visitors, groupOfClick };
}

/** One group's verdict: how many of its clicks were counted, the link's target, and why the rest were not. */
interface GroupVerdict {
  grp: number;
  granted: number;
  original_url: string | null;
  ios_url: string | null;
  android_url: string | null;
  /** Why the rest were not counted; "flagged": they did not continue past the warning. */
  gone: Gone | "flagged";
}

/**
 * writeClicks counts a batch of clicks in one statement (one implicit transaction) and returns each
 * click's resolution: its link's target, or why there is none. All of the batch's clicks fall on one
 * UTC day, the day it is written (this process's clock). The statement is the function count_clicks
 * (migrations/018, so that each connection plans it once); in order, it:
 *
 * 1. locks the links' rows in code order, so two instances writing overlapping batches wait for each
 *    other instead of deadlocking; everything below a link writes is written under its lock, and the
 *    clicks it reads are the latest committed (a locking read waits for and re-reads a changed row);
 * 2. grants each group of clicks what its link still takes: nothing on a password-protected link
 *    unless the visit was unlocked, and on a link with a click limit only what remains below it, to the
 *    batch's groups in order, so the limit is exact under any concurrency and costs no extra round trip;
 * 3. adds each link's granted clicks to `urls.clicks` and sets `last_clicked_at`;
 * 4. adds the hash of each visitor whose first click was counted to url_visitors: a hash already there
 *    is a visitor seen today;
 * 5. adds each group's granted clicks, and its visitors new today, to the link's row of the day for that
 *    combination of referrer host, device, country, browser, system, source and campaign (url_click_facts);
 * 6. queues the batch's link.clicked events (its granted clicks) in one outbox row (url/link-events.ts),
 *    so a counted click always has its event;
 * 7. answers each group with its link's targets (an iPhone or Android visitor may have one of their
 *    own); only a code that names no live link is looked up again, to tell an expired link from a
 *    missing one.
 *
 * Either everything in the batch is counted or nothing is. Exported so a test can run two instances'
 * batches against each other.
 */
export async function writeClicks(clicks: Click[]): Promise<Resolution[]> {
  const day = utcDay(new Date());
  // Bots are no visitors: a batch of bots alone needs no key, and so never waits for one.
  const key = clicks.some((c) => c.visitor !== null) ? await visitorKey(day) : null;
  const { groups: g, visitors: v, groupOfClick } = groupClicks(clicks, day, key);
  const verdicts = await db.queryAll<GroupVerdict>`
    SELECT * FROM count_clicks(${g.code}, ${g.host}, ${g.device}, ${g.country}, ${g.browser}, ${g.os}, ${g.source}, ${g.campaign},
                               ${g.unlocked}, ${g.warned}, ${g.n}, ${v.group}, ${v.ord}, ${v.hash}, ${day}::date)
  `;
  // A group's first `granted` clicks, in the batch's order, are the counted ones.
  const byGroup: GroupVerdict[] = [];
  for (const verdict of verdicts) byGroup[verdict.grp - 1] = verdict;
  return groupOfClick.map((i, k): Resolution => {
    const verdict = byGroup[i];
    if (verdict.original_url === null || (verdict.granted === 0 && verdict.gone !== "flagged")) return { gone: verdict.gone as Gone };
    const targets = { originalUrl: verdict.original_url, iosUrl: verdict.ios_url, androidUrl: verdict.android_url };
    if (verdict.granted === 0) return { warn: targetFor(targets, clicks[k].os) };
    verdict.granted--;
    return { target: targetFor(targets, clicks[k].os) };
  });
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
