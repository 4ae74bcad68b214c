// GET /analytics/clicks: the clicks of all a workspace's links together, and which links had them.
import { api, type Query } from "encore.dev/api";
import { currentActor, workspaceAccess } from "./access";
import { clickRange, type RangeQuery } from "./click-range";
import type { AccountClicks } from "./click-report-types";
import { readClickReport, TOP } from "./click-report";

/** AccountClicksRequest picks the days and the workspace. */
export interface AccountClicksRequest extends RangeQuery {
  /** The workspace whose links to report; default: the caller's personal one. */
  workspaceId?: Query<string>;
}

/**
 * accountClicks reports all the links of a workspace of the caller's (default: its personal one) over
 * the range (default: the last 30 days). It lives in
 * the url service, beside the clicks it reads; the path groups it with the other analytics.
 */
export const accountClicks = api(
  { expose: true, auth: true, method: "GET", path: "/analytics/clicks" },
  async ({ days, from, to, workspaceId }: AccountClicksRequest): Promise<AccountClicks> => {
    const range = clickRange({ days, from, to });
    const access = await workspaceAccess(currentActor(), workspaceId, "analytics.read");
    const read = await readClickReport({ workspaceId: access.workspaceId, code: null }, range);
    return { ...read.report, topLinks: read.byLink.slice(0, TOP) };
  },
);
