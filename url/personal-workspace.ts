// Every user's personal workspace: made with the account (auth's signup asks for it) or, for a user
// who has none yet (an account made before workspaces, a signup whose request here failed), on first use.
import { api } from "encore.dev/api";
import type { UserActor } from "./access";
import { recordAudit } from "./audit-log";
import { db } from "./db";
import { inTransaction } from "./transaction";

/** PERSONAL_NAME names every personal workspace. */
export const PERSONAL_NAME = "Personal";

/** personalWorkspaceId returns the user's personal workspace, creating it on first use. */
export async function personalWorkspaceId(user: UserActor): Promise<string> {
  const row = await db.queryRow<{ id: string }>`SELECT id::text AS id FROM workspaces WHERE personal_of = ${user.id}`;
  return row?.id ?? (await createPersonalWorkspace(user));
}

/** createPersonalWorkspace makes the user's personal workspace with the user as its owner; a concurrent call's wins. */
async function createPersonalWorkspace(user: UserActor): Promise<string> {
  const userId = user.id;
  return inTransaction(async (tx) => {
    const created = await tx.queryRow<{ id: string }>`
      INSERT INTO workspaces (name, personal_of) VALUES (${PERSONAL_NAME}, ${userId})
      ON CONFLICT (personal_of) DO NOTHING
      RETURNING id::text AS id
    `;
    if (created === null) {
      // Another request made it first and has committed (ON CONFLICT waited for it).
      const existing = await tx.queryRow<{ id: string }>`SELECT id::text AS id FROM workspaces WHERE personal_of = ${userId}`;
      return existing!.id;
    }
    await tx.exec`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (${created.id}::text::bigint, ${userId}, 'owner')`;
    const details = { name: PERSONAL_NAME, personal: true };
    await recordAudit(tx, {
      workspaceId: created.id,
      actor: user,
      action: "workspace.created",
      target: { type: "workspace", id: created.id },
      details,
    });
    return created.id;
  });
}

/** NewAccount is an account just created. */
export interface NewAccount {
  userID: string;
  email: string;
}

/** ensurePersonalWorkspace gives a new account its personal workspace; auth's signup calls it. */
export const ensurePersonalWorkspace = api({ expose: false }, async ({ userID, email }: NewAccount): Promise<{ workspaceId: string }> => {
  return { workspaceId: await personalWorkspaceId({ type: "user", id: userID, userId: userID, label: email }) };
});
