// GET /analytics/links-created: how many links a workspace made on each UTC day of a range, read from
// its audit log, which keeps a link.created entry for every link (url/store-link.ts writes it in the
// link's own statement) and outlives the link, so a deleted or cleaned-up link still counts on its day.
import { api } from "encore.dev/api";
import { db } from "./db";
import type { DayCreated, LinksCreated } from "./links-created-types";
import { workspaceRange, type WorkspaceRangeQuery } from "./workspace-range";

/**
 * linksCreated counts a workspace's new links per day over the range (default: the last 30 days),
 * for anyone who may read its analytics. Links made before the audit log existed (migration 012) have
 * no entry and are not counted.
 */
export const linksCreated = api(
  { expose: true, auth: true, method: "GET", path: "/analytics/links-created" },
  async (req: WorkspaceRangeQuery): Promise<LinksCreated> => {
    const { range, workspaceId } = await workspaceRange(req);
    const rows = await db.queryAll<DayCreated>`
      WITH made AS (
        SELECT (at AT TIME ZONE 'UTC')::date AS day, COUNT(*) AS n FROM audit_log
        WHERE workspace_id = ${workspaceId}::text::bigint AND action = 'link.created'
          AND at >= ${range.from}::date::timestamp AT TIME ZONE 'UTC'
          AND at < (${range.to}::date + 1)::timestamp AT TIME ZONE 'UTC'
        GROUP BY 1
      )
      SELECT to_char(g.day, 'YYYY-MM-DD') AS date, COALESCE(made.n, 0)::int8 AS created
      FROM generate_series(${range.from}::date, ${range.to}::date, interval '1 day') AS g (day)
      LEFT JOIN made ON made.day = g.day::date
      ORDER BY g.day
    `;
    return { ...range, days: rows, total: rows.reduce((sum, d) => sum + d.created, 0) };
  },
);
