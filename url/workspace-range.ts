// What the workspace-wide analytics endpoints (all clicks, links made per day) ask for and check first.
import type { Query } from "encore.dev/api";
import { currentActor, workspaceAccess } from "./access";
import { clickRange, type ClickRange, type RangeQuery } from "./click-range";

/** WorkspaceRangeQuery picks the days and the workspace. */
export interface WorkspaceRangeQuery extends RangeQuery {
  /** The workspace to report on; default: the caller's personal one. */
  workspaceId?: Query<string>;
}

/** workspaceRange checks the days and that the caller may read the workspace's analytics, before any reading. */
export async function workspaceRange({
  days,
  from,
  to,
  workspaceId,
}: WorkspaceRangeQuery): Promise<{ range: ClickRange; workspaceId: string }> {
  const range = clickRange({ days, from, to });
  const access = await workspaceAccess(currentActor(), workspaceId, "analytics.read");
  return { range, workspaceId: access.workspaceId };
}
