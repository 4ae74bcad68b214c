// Appending to the audit log. Every change to a workspace's data calls recordAudit with the transaction
// that makes the change, so the entry commits with it or not at all.
import type { Transaction } from "encore.dev/storage/sqldb";
import type { Actor } from "./access";

/** AuditAction names what an entry records. */
export type AuditAction =
  | "workspace.created"
  | "link.created"
  | "link.updated"
  | "link.deleted"
  /** A site admin disabled, enabled, flagged or unflagged a link (url/abuse). */
  | "link.moderated"
  | "member.invited"
  | "member.joined"
  | "member.role_changed"
  | "member.removed"
  | "key.created"
  | "key.revoked";

/** AuditTarget is the object a change touched: a link by code, a member by user ID, an invitation, a key or the workspace. */
export interface AuditTarget {
  type: "workspace" | "link" | "member" | "invite" | "key";
  id: string;
}

/** AuditRecord is one entry to append. */
export interface AuditRecord {
  workspaceId: string;
  actor: Actor;
  action: AuditAction;
  target: AuditTarget;
  /** What changed, as JSON: e.g. the fields before and after. Never a secret, never an address. */
  details?: Record<string, unknown>;
}

/** recordAudit appends an entry inside `tx`, the transaction of the change it records. */
export async function recordAudit(tx: Pick<Transaction, "exec">, entry: AuditRecord): Promise<void> {
  await tx.exec`
    INSERT INTO audit_log (workspace_id, actor_type, actor_id, actor_label, action, target_type, target_id, details)
    VALUES (${entry.workspaceId}::text::bigint, ${entry.actor.type}, ${entry.actor.id}, ${entry.actor.label}, ${entry.action},
            ${entry.target.type}, ${entry.target.id}, ${JSON.stringify(entry.details ?? {})}::text::jsonb)
  `;
}
