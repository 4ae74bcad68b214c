// GET /analytics/clicks: the clicks of all a workspace's links together, and which links had them.
import { api } from "encore.dev/api";
import type { AccountClicks } from "./click-report-types";
import { readClickReport, TOP } from "./click-report";
import { workspaceRange, type WorkspaceRangeQuery } from "./workspace-range";

/**
 * accountClicks reports all the links of a workspace of the caller's (default: its personal one) over
 * the range (default: the last 30 days). It lives in
 * the url service, beside the clicks it reads; the path groups it with the other analytics.
 */
export const accountClicks = api(
  { expose: true, auth: true, method: "GET", path: "/analytics/clicks" },
  async (req: WorkspaceRangeQuery): Promise<AccountClicks> => {
    const { range, workspaceId } = await workspaceRange(req);
    const read = await readClickReport({ workspaceId, code: null }, range);
    return { ...read.report, topLinks: read.byLink.slice(0, TOP) };
  },
);
