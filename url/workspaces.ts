// POST /workspaces and GET /workspaces: shared workspaces, and the ones the caller belongs to.
import { api, APIError } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { currentUser } from "./access";
import { recordAudit } from "./audit-log";
import { db } from "./db";
import { personalWorkspaceId } from "./personal-workspace";
import type { Role } from "./roles";
import { inTransaction } from "./transaction";

/** Workspace is a workspace as one of its members sees it. */
export interface Workspace {
  /** A decimal string. */
  id: string;
  name: string;
  /** The caller's role in it. */
  role: Role;
  /** True for the caller's personal workspace, made with the account. */
  personal: boolean;
}

/** CreateWorkspaceRequest names a new shared workspace. */
export interface CreateWorkspaceRequest {
  name: string & MinLen<1> & MaxLen<100>;
}

/** ListWorkspacesResponse is every workspace the caller belongs to, personal first, then oldest first. */
export interface ListWorkspacesResponse {
  workspaces: Workspace[];
}

/** workspaceName trims a name and refuses one that is blank or has control characters. */
export function workspaceName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 100) throw APIError.invalidArgument("name must be 1 to 100 characters");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw APIError.invalidArgument("name must not contain control characters");
  return trimmed;
}

/** createWorkspace makes a shared workspace owned by the caller. */
export const createWorkspace = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces" },
  async ({ name }: CreateWorkspaceRequest): Promise<Workspace> => {
    const actor = currentUser();
    const clean = workspaceName(name);
    return inTransaction(async (tx) => {
      const row = await tx.queryRow<{ id: string }>`INSERT INTO workspaces (name) VALUES (${clean}) RETURNING id::text AS id`;
      await tx.exec`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (${row!.id}::text::bigint, ${actor.id}, 'owner')`;
      const target = { type: "workspace", id: row!.id } as const;
      await recordAudit(tx, {
        workspaceId: row!.id,
        actor,
        action: "workspace.created",
        target,
        details: { name: clean, personal: false },
      });
      return { id: row!.id, name: clean, role: "owner", personal: false };
    });
  },
);

/** listWorkspaces lists the caller's workspaces with its role in each; the personal one always among them. */
export const listWorkspaces = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces" },
  async (): Promise<ListWorkspacesResponse> => {
    const actor = currentUser();
    await personalWorkspaceId(actor);
    const rows = await db.queryAll<{ id: string; name: string; role: Role; personal: boolean }>`
      SELECT w.id::text AS id, w.name, m.role, w.personal_of IS NOT DISTINCT FROM ${actor.id} AS personal
      FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ${actor.id}
      ORDER BY w.personal_of IS NULL, w.id
    `;
    return { workspaces: rows };
  },
);
