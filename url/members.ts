// A workspace's members: who they are, their roles, and leaving or being removed. A workspace always
// keeps at least one owner; changes to members of one workspace take its row's lock so two concurrent
// demotions cannot both pass that check.
import { api, APIError } from "encore.dev/api";
import type { Transaction } from "encore.dev/storage/sqldb";
import { checkWorkspaceId, currentUser, workspaceAccess, type Access, type Actor } from "./access";
import { recordAudit } from "./audit-log";
import { db } from "./db";
import { allows, isRole, type Action, type Role } from "./roles";
import { inTransaction } from "./transaction";
import { userLabels } from "./user-labels";

/** Member is one member of a workspace. */
export interface Member {
  userId: string;
  /** The account's email; null when the account no longer exists. */
  email: string | null;
  role: Role;
  joinedAt: Date;
}

/** WorkspaceRef names a workspace. */
export interface WorkspaceRef {
  id: string;
}

/** ListMembersResponse is every member, owners first, then by joining time. */
export interface ListMembersResponse {
  members: Member[];
}

/** MemberRef names one member of a workspace. */
export interface MemberRef {
  id: string;
  userId: string;
}

/** ChangeRoleRequest gives a member a new role. */
export interface ChangeRoleRequest extends MemberRef {
  role: Role;
}

interface MemberRow {
  userId: string;
  role: Role;
  joinedAt: Date;
}

/** listMembers lists the workspace's members; any member may see them. */
export const listMembers = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/members" },
  async ({ id }: WorkspaceRef): Promise<ListMembersResponse> => {
    await workspaceAccess(currentUser(), id, "members.read");
    const rows = await db.queryAll<MemberRow>`
      SELECT user_id AS "userId", role, joined_at AS "joinedAt"
      FROM workspace_members WHERE workspace_id = ${id}::text::bigint
      ORDER BY role = 'owner' DESC, joined_at, user_id
    `;
    const emails = await userLabels(rows.map((r) => r.userId));
    return { members: rows.map((r) => ({ ...r, email: emails.get(r.userId) ?? null })) };
  },
);

/** changeRole gives a member another role; only an owner may, and the last owner cannot be demoted. */
export const changeRole = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id/members/:userId" },
  async ({ id, userId, role }: ChangeRoleRequest): Promise<Member> => {
    if (!isRole(role)) throw APIError.invalidArgument("role must be owner, admin, member or viewer");
    const actor = currentUser();
    const row = await inTransaction(async (tx) => {
      await lockedAccess(tx, actor, id, "members.role");
      const target = await memberRow(tx, id, userId);
      if (target.role === "owner" && role !== "owner") await keepAnOwner(tx, id, "demote");
      const changed = await tx.queryRow<MemberRow>`
        UPDATE workspace_members SET role = ${role}
        WHERE workspace_id = ${id}::text::bigint AND user_id = ${userId}
        RETURNING user_id AS "userId", role, joined_at AS "joinedAt"
      `;
      const details = { before: target.role, after: role };
      await recordAudit(tx, { workspaceId: id, actor, action: "member.role_changed", target: { type: "member", id: userId }, details });
      return changed;
    });
    const emails = await userLabels([userId]);
    return { ...row!, email: emails.get(userId) ?? null };
  },
);

/**
 * removeMember takes a member out of the workspace. Anyone may leave; an admin may remove members
 * and viewers, an owner anyone; the last owner can neither leave nor be removed.
 */
export const removeMember = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/members/:userId" },
  async ({ id, userId }: MemberRef): Promise<void> => {
    const actor = currentUser();
    await inTransaction(async (tx) => {
      const leaving = userId === actor.id;
      const access = await lockedAccess(tx, actor, id, leaving ? "members.read" : "members.remove");
      const target = await memberRow(tx, id, userId);
      if (!leaving && !allows(access.role, "members.role") && (target.role === "owner" || target.role === "admin")) {
        throw APIError.permissionDenied(`a workspace ${access.role} cannot remove an ${target.role}`);
      }
      if (target.role === "owner") await keepAnOwner(tx, id, "remove");
      await tx.exec`DELETE FROM workspace_members WHERE workspace_id = ${id}::text::bigint AND user_id = ${userId}`;
      const details = { role: target.role, left: leaving };
      await recordAudit(tx, { workspaceId: id, actor, action: "member.removed", target: { type: "member", id: userId }, details });
    });
  },
);

/** lockedAccess takes the workspace's lock, which serialises member changes, then checks the actor's access. */
export async function lockedAccess(tx: Transaction, actor: Actor, id: string, action: Action): Promise<Access> {
  await tx.exec`SELECT id FROM workspaces WHERE id = ${checkWorkspaceId(id)}::text::bigint FOR UPDATE`;
  return workspaceAccess(actor, id, action, tx);
}

/** memberRow reads one member, or not_found. */
async function memberRow(tx: Transaction, id: string, userId: string): Promise<MemberRow> {
  const row = await tx.queryRow<MemberRow>`
    SELECT user_id AS "userId", role, joined_at AS "joinedAt"
    FROM workspace_members WHERE workspace_id = ${id}::text::bigint AND user_id = ${userId}
  `;
  if (row === null) throw APIError.notFound("member not found");
  return row;
}

/** keepAnOwner refuses a change that would leave the workspace without an owner. */
async function keepAnOwner(tx: Transaction, id: string, change: "demote" | "remove"): Promise<void> {
  const row = await tx.queryRow<{ owners: number }>`
    SELECT COUNT(*)::int AS owners FROM workspace_members WHERE workspace_id = ${id}::text::bigint AND role = 'owner'
  `;
  if (row!.owners <= 1) {
    throw APIError.failedPrecondition(`cannot ${change} the last owner: make another member an owner first`);
  }
}
