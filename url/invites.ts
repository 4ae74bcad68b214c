// Invitations into a shared workspace: an owner or admin makes a single-use token valid 7 days; a
// signed-in user who presents it joins with its role. Only the token's SHA-256 is stored.
import { createHash, randomBytes } from "node:crypto";
import { api, APIError } from "encore.dev/api";
import { currentUser } from "./access";
import { recordAudit } from "./audit-log";
import { lockedAccess } from "./members";
import type { Role } from "./roles";
import { inTransaction } from "./transaction";

/** INVITE_TTL_MS is how long an invitation can be accepted. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** InvitedRole is a role an invitation can give; owners are made by an owner, from members. */
export type InvitedRole = "admin" | "member" | "viewer";

/** CreateInviteRequest names the workspace and the role the invitee gets. */
export interface CreateInviteRequest {
  id: string;
  role: InvitedRole;
}

/** Invite is a new invitation; the token is shown only here. */
export interface Invite {
  token: string;
  role: InvitedRole;
  expiresAt: Date;
}

/** AcceptInviteRequest carries the token from the invitation. */
export interface AcceptInviteRequest {
  token: string;
}

/** Joined is the workspace the caller now belongs to, with its role there. */
export interface Joined {
  workspaceId: string;
  name: string;
  role: Role;
}

const INVITED_ROLES: readonly string[] = ["admin", "member", "viewer"];

/** tokenHash is what the table keeps of a token. */
function tokenHash(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** createInvite makes an invitation into a shared workspace; personal workspaces have only their user. */
export const createInvite = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/invites" },
  async ({ id, role }: CreateInviteRequest): Promise<Invite> => {
    if (!INVITED_ROLES.includes(role)) throw APIError.invalidArgument("role must be admin, member or viewer");
    const actor = currentUser();
    const token = randomBytes(32).toString("base64url");
    return inTransaction(async (tx) => {
      await lockedAccess(tx, actor, id, "members.invite");
      const personal = await tx.queryRow<{ personal: boolean }>`
        SELECT personal_of IS NOT NULL AS personal FROM workspaces WHERE id = ${id}::text::bigint
      `;
      if (personal!.personal)
        throw APIError.failedPrecondition("a personal workspace has only its owner: create a shared workspace to invite others");
      const row = await tx.queryRow<{ id: string; expires_at: Date }>`
        INSERT INTO workspace_invites (workspace_id, token_hash, role, invited_by, expires_at)
        VALUES (${id}::text::bigint, ${tokenHash(token)}, ${role}, ${actor.id}, now() + ${INVITE_TTL_MS} * interval '1 millisecond')
        RETURNING id::text AS id, expires_at
      `;
      const details = { role, expiresAt: row!.expires_at };
      await recordAudit(tx, { workspaceId: id, actor, action: "member.invited", target: { type: "invite", id: row!.id }, details });
      return { token, role, expiresAt: row!.expires_at };
    });
  },
);

/**
 * acceptInvite joins the caller to the invitation's workspace. An unknown, used or expired token is
 * not_found, whichever it is; a caller already in the workspace keeps its role and the token stays unused.
 */
export const acceptInvite = api(
  { expose: true, auth: true, method: "POST", path: "/invites/:token/accept" },
  async ({ token }: AcceptInviteRequest): Promise<Joined> => {
    const actor = currentUser();
    return inTransaction(async (tx) => {
      const invite = await tx.queryRow<{ id: string; workspace_id: string; role: Role; name: string }>`
        SELECT i.id::text AS id, i.workspace_id::text AS workspace_id, i.role, w.name
        FROM workspace_invites i JOIN workspaces w ON w.id = i.workspace_id
        WHERE i.token_hash = ${tokenHash(token)} AND i.accepted_by IS NULL AND i.expires_at > now()
        FOR UPDATE OF i
      `;
      if (invite === null) throw APIError.notFound("invitation not found, already used or expired");
      const joined = await tx.queryRow<{ role: Role }>`
        INSERT INTO workspace_members (workspace_id, user_id, role)
        VALUES (${invite.workspace_id}::text::bigint, ${actor.id}, ${invite.role})
        ON CONFLICT (workspace_id, user_id) DO NOTHING
        RETURNING role
      `;
      if (joined === null) throw APIError.alreadyExists("you are already a member of this workspace");
      await tx.exec`UPDATE workspace_invites SET accepted_by = ${actor.id}, accepted_at = now() WHERE id = ${invite.id}::text::bigint`;
      const details = { role: joined.role, invite: invite.id };
      const target = { type: "member", id: actor.id } as const;
      await recordAudit(tx, { workspaceId: invite.workspace_id, actor, action: "member.joined", target, details });
      return { workspaceId: invite.workspace_id, name: invite.name, role: joined.role };
    });
  },
);
