// GET /workspaces/:id/audit: a workspace's audit log, newest first, for its owners and admins. The API
// only reads it; entries are appended by the changes themselves (url/audit-log.ts).
import { api, APIError, type Query } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { currentActor, workspaceAccess } from "./access";
import type { AuditAction, AuditTarget } from "./audit-log";
import { decodeCursor, encodeCursor } from "./cursor";
import { db } from "./db";

/** AUDIT_PAGE_MAX is the most entries one page holds; AUDIT_PAGE_DEFAULT how many without `limit`. */
export const AUDIT_PAGE_MAX = 100;
const AUDIT_PAGE_DEFAULT = 50;

/** AuditRequest names the workspace and the page. */
export interface AuditRequest {
  id: string;
  /** nextCursor from the previous page; absent for the first page. */
  cursor?: Query<string>;
  /** Entries per page, 1 to 100; default 50. */
  limit?: Query<number & Min<1> & Max<100>>;
}

/** AuditActor is who made a change: a user (label: its email then) or an API key (label: its name then). */
export interface AuditActor {
  type: "user" | "key";
  id: string;
  label: string;
}

/** AuditEntry is one recorded change. */
export interface AuditEntry {
  id: string;
  at: Date;
  actor: AuditActor;
  action: AuditAction;
  target: AuditTarget;
  /** What changed: for link.updated the changed fields before and after; never a secret or an address. */
  details: Record<string, unknown>;
}

/** AuditPage is one page of entries, newest first. */
export interface AuditPage {
  entries: AuditEntry[];
  /** Present when older entries follow; pass it as `cursor`. */
  nextCursor?: string;
}

interface AuditRow {
  id: string;
  at: Date;
  actor_type: AuditActor["type"];
  actor_id: string;
  actor_label: string;
  action: AuditAction;
  target_type: AuditTarget["type"];
  target_id: string;
  details: Record<string, unknown>;
}

/** auditLog pages through a workspace's entries, newest first; owners and admins only. */
export const auditLog = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/audit" },
  async ({ id, cursor, limit }: AuditRequest): Promise<AuditPage> => {
    const size = limit ?? AUDIT_PAGE_DEFAULT;
    if (!Number.isInteger(size) || size < 1 || size > AUDIT_PAGE_MAX)
      throw APIError.invalidArgument(`limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`);
    const before = cursor === undefined ? null : decodeCursor(cursor, Number.MAX_SAFE_INTEGER);
    await workspaceAccess(currentActor(), id, "audit.read");
    // One row more than a page tells whether another page follows.
    const rows = await db.queryAll<AuditRow>`
      SELECT id::text AS id, at, actor_type, actor_id, actor_label, action, target_type, target_id, details
      FROM audit_log
      WHERE workspace_id = ${id}::text::bigint AND (${before}::int8 IS NULL OR audit_log.id < ${before}::int8)
      -- Qualified: the bare name would sort by the text column selected as id.
      ORDER BY audit_log.id DESC
      LIMIT ${size + 1}
    `;
    const page = rows.slice(0, size);
    return {
      entries: page.map((r) => ({
        id: r.id,
        at: r.at,
        actor: { type: r.actor_type, id: r.actor_id, label: r.actor_label },
        action: r.action,
        target: { type: r.target_type, id: r.target_id },
        details: r.details,
      })),
      nextCursor: rows.length > size ? encodeCursor(Number(page[page.length - 1].id)) : undefined,
    };
  },
);
