// Every user's personal workspace: made with the account (auth's signup asks for it) or, for a user
// who has none yet (an account made before workspaces, a signup whose request here failed), on first use.
import { api } from "encore.dev/api";
import { db } from "./db";
import { inTransaction } from "./transaction";

/** PERSONAL_NAME names every personal workspace. */
export const PERSONAL_NAME = "Personal";

/** personalWorkspaceId returns the user's personal workspace, creating it on first use. */
export async function personalWorkspaceId(user: { id: string }): Promise<string> {
  const row = await db.queryRow<{ id: string }>`SELECT id::text AS id FROM workspaces WHERE personal_of = ${user.id}`;
  return row?.id ?? (await createPersonalWorkspace(user.id));
}

/** createPersonalWorkspace makes the user's personal workspace with the user as its owner; a concurrent call's wins. */
async function createPersonalWorkspace(userId: string): Promise<string> {
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
    return created.id;
  });
}

/** NewAccount is an account just created. */
export interface NewAccount {
  userID: string;
}

/** ensurePersonalWorkspace gives a new account its personal workspace; auth's signup calls it. */
export const ensurePersonalWorkspace = api({ expose: false }, async ({ userID }: NewAccount): Promise<{ workspaceId: string }> => {
  return { workspaceId: await personalWorkspaceId({ id: userID }) };
});
