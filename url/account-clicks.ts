// GET /analytics/clicks: the clicks of all the caller's links together, and which links had them.
import { api } from "encore.dev/api";
import { callerID } from "./caller";
import { clickRange, type RangeQuery } from "./click-range";
import { readClickReport, TOP, type ClickReport, type LinkClicks } from "./click-report";

/** AccountClicks is the report over every link of the caller's, with the links that had most clicks. */
export interface AccountClicks extends ClickReport {
  /** The 10 links with most clicks in the range, most first (ties by code). */
  topLinks: LinkClicks[];
}

/**
 * accountClicks reports all the caller's links over the range (default: the last 30 days). It lives in
 * the url service, beside the clicks it reads; the path groups it with the other analytics.
 */
export const accountClicks = api(
  { expose: true, auth: true, method: "GET", path: "/analytics/clicks" },
  async ({ days, from, to }: RangeQuery): Promise<AccountClicks> => {
    const owner = callerID();
    const range = clickRange({ days, from, to });
    const read = await readClickReport({ owner, code: null }, range);
    return { ...read.report, topLinks: read.byLink.slice(0, TOP) };
  },
);
