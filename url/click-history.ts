// GET /urls/:code/clicks: when, from where, from which country, on what and through which campaign a
// link was followed, and by how many people, for any member of its workspace.
import { api } from "encore.dev/api";
import { currentActor, linkAccess } from "./access";
import { clickRange, type RangeQuery } from "./click-range";
import type { ClickReport } from "./click-report-types";
import { readClickReport } from "./click-report";

/** ClickHistoryRequest names the link and the days: the last `days` UTC days, or `from` to `to`. */
export interface ClickHistoryRequest extends RangeQuery {
  code: string;
}

/**
 * clickHistory reports a link of one of the caller's workspaces over the range (default: the last 30
 * days). A link outside them is not_found, exactly like a missing one.
 */
export const clickHistory = api(
  { expose: true, auth: true, method: "GET", path: "/urls/:code/clicks" },
  async ({ code, days, from, to }: ClickHistoryRequest): Promise<ClickReport> => {
    const range = clickRange({ days, from, to });
    const link = await linkAccess(currentActor(), code, "analytics.read");
    return (await readClickReport({ workspaceId: link.workspaceId, code: link.code }, range)).report;
  },
);
