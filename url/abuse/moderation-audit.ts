// Site admins' actions on links land in each link's workspace audit log, in the transaction that
// makes them, so a workspace's owners see who disabled or flagged their links and why.
import type { Transaction } from "encore.dev/storage/sqldb";
import type { Actor } from "../access";

/** Moderated is one link an admin action changed: its workspace (null for links from before sign-in) and its state before and after. */
export interface Moderated {
  workspace_id: string | null;
  code: string;
  was_disabled: boolean;
  disabled: boolean;
  was_flagged: boolean;
  flagged: boolean;
  disabled_reason: string | null;
}

/** recordModerations appends a link.moderated entry for each link in `links` that belongs to a workspace, in one statement inside `tx`. */
export async function recordModerations(tx: Pick<Transaction, "exec">, actor: Actor, links: Moderated[]): Promise<void> {
  const owned = links.filter((l) => l.workspace_id !== null);
  if (owned.length === 0) return;
  await tx.exec`
    INSERT INTO audit_log (workspace_id, actor_type, actor_id, actor_label, action, target_type, target_id, details)
    SELECT m.workspace_id::bigint, ${actor.type}, ${actor.id}, ${actor.label}, 'link.moderated', 'link', m.code,
           jsonb_build_object('before', jsonb_build_object('disabled', m.was_disabled, 'flagged', m.was_flagged),
                              'after', jsonb_build_object('disabled', m.disabled, 'flagged', m.flagged),
                              'reason', m.reason)
    FROM unnest(${owned.map((l) => l.workspace_id)}::text[], ${owned.map((l) => l.code)}::text[],
                ${owned.map((l) => l.was_disabled)}::bool[], ${owned.map((l) => l.disabled)}::bool[],
                ${owned.map((l) => l.was_flagged)}::bool[], ${owned.map((l) => l.flagged)}::bool[],
                ${owned.map((l) => l.disabled_reason)}::text[])
      AS m (workspace_id, code, was_disabled, disabled, was_flagged, flagged, reason)
  `;
}
