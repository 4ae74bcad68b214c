// GET /analytics/clicks: the clicks of all the caller's links together, and which links had them.
import { api } from "encore.dev/api";
import { callerID } from "./caller";
import { clickRange, type RangeQuery } from "./click-range";
import type { AccountClicks } from "./click-report-types";
import { readClickReport, TOP } from "./click-report";

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
