// Who may touch which workspace and link: every endpoint that reads or changes a workspace's data asks
// here. Another workspace's object answers not_found, exactly like a missing one, so nothing leaks
// whether it exists; a role too weak for the action answers permission_denied.
import { APIError } from "encore.dev/api";
import type { Transaction } from "encore.dev/storage/sqldb";
import { getAuthData } from "~encore/auth";
import { isLinkCode } from "./alias";
import { db } from "./db";
import { isKeyScope, scopeFor, type KeyScope } from "./key-scopes";
import { allows, type Action, type Role } from "./roles";
import { personalWorkspaceId } from "./personal-workspace";

/** UserActor is a person signed in with a password token (label: the email); userId is its id. */
export interface UserActor {
  type: "user";
  id: string;
  userId: string;
  label: string;
}

/**
 * KeyActor is an API key (id: the key's, label: its name). It acts for the user who made it (userId),
 * never beyond that user's role, and only inside its workspace with its scopes.
 */
export interface KeyActor {
  type: "key";
  id: string;
  userId: string;
  label: string;
  workspaceId: string;
  scopes: KeyScope[];
}

/** Actor is who makes the request. */
export type Actor = UserActor | KeyActor;

/** currentActor is the caller; auth: true guarantees one over HTTP, a direct call may lack it. */
export function currentActor(): Actor {
  const auth = getAuthData();
  if (auth === null) throw APIError.unauthenticated("sign in to manage short links");
  if (auth.keyID === undefined) return { type: "user", id: auth.userID, userId: auth.userID, label: auth.email };
  return {
    type: "key",
    id: auth.keyID,
    userId: auth.userID,
    label: auth.keyName ?? "",
    workspaceId: auth.workspaceID ?? "",
    scopes: (auth.scopes ?? []).filter(isKeyScope),
  };
}

/** currentUser is the caller when it must be a person (managing keys, members, workspaces): a key is permission_denied. */
export function currentUser(): UserActor {
  const actor = currentActor();
  if (actor.type === "key") throw APIError.permissionDenied("an API key cannot do this: sign in with a password");
  return actor;
}

/** checkScope refuses a key whose scopes lack what `action` needs, naming the scope. */
function checkScope(actor: Actor, action: Action): void {
  if (actor.type !== "key") return;
  const scope = scopeFor(action);
  if (scope === null) throw APIError.permissionDenied(`an API key cannot do ${action}: sign in with a password`);
  if (!actor.scopes.includes(scope)) throw APIError.permissionDenied(`this API key lacks the ${scope} scope`);
}

/** keyWorkspace is the only workspace a key reaches (null for a person). */
function keyWorkspace(actor: Actor): string | null {
  return actor.type === "key" ? actor.workspaceId : null;
}

/** Access is a workspace the actor may act in, with its role there. */
export interface Access {
  workspaceId: string;
  role: Role;
}

/** LinkAccess is a link the actor may act on: its row id, code, workspace, creator, and the actor's role there. */
export interface LinkAccess extends Access {
  id: number;
  code: string;
  creator: string | null;
  /** The link's target as stored. */
  originalUrl: string;
}

/** Queryable is the database or a transaction on it. */
type Queryable = Pick<Transaction, "queryRow">;

const WORKSPACE_ID = /^[1-9][0-9]{0,17}$/;

function workspaceNotFound(): APIError {
  return APIError.notFound("workspace not found");
}

/** checkWorkspaceId refuses an ID no workspace can have as not_found, before it reaches SQL. */
export function checkWorkspaceId(id: string): string {
  if (!WORKSPACE_ID.test(id)) throw workspaceNotFound();
  return id;
}

function denied(action: Action, role: Role): APIError {
  return APIError.permissionDenied(`a workspace ${role} cannot do ${action}`);
}

/**
 * workspaceAccess returns the actor's role in the workspace (the actor's personal one when
 * `workspaceId` is undefined), or throws not_found when it is not a member and permission_denied
 * when its role may not do `action`.
 */
export async function workspaceAccess(actor: Actor, workspaceId: string | undefined, action: Action, q: Queryable = db): Promise<Access> {
  // Its user always owns a personal workspace (url/members.ts keeps it so); resolving one may create
  // it outside `q`, so callers inside a transaction pass the id.
  checkScope(actor, action);
  if (actor.type === "key") {
    workspaceId ??= actor.workspaceId;
    if (workspaceId !== actor.workspaceId) throw workspaceNotFound();
  } else if (workspaceId === undefined) {
    return { workspaceId: await personalWorkspaceId(actor), role: "owner" };
  }
  checkWorkspaceId(workspaceId);
  const row = await q.queryRow<{ role: Role }>`
    SELECT role FROM workspace_members WHERE workspace_id = ${workspaceId}::text::bigint AND user_id = ${actor.userId}
  `;
  if (row === null) throw workspaceNotFound();
  if (!allows(row.role, action)) throw denied(action, row.role);
  return { workspaceId, role: row.role };
}

/**
 * linkAccess finds the link under `code` and checks the actor may do `action` to it: not_found when
 * there is no such link or it lies outside the actor's workspaces, permission_denied when its role is
 * too weak (a member changing another's link, a viewer changing any). `lock` takes the row's lock in
 * the transaction `q`, so the change that follows sees the row the check saw.
 */
export async function linkAccess(actor: Actor, code: string, action: Action, q: Queryable = db, lock = false): Promise<LinkAccess> {
  checkScope(actor, action);
  if (!isLinkCode(code)) throw APIError.notFound("URL not found");
  const only = keyWorkspace(actor);
  const row = lock
    ? await q.queryRow<LinkAccess>`
        SELECT u.id, u.code, u.workspace_id::text AS "workspaceId", u.creator, u.original_url AS "originalUrl", m.role
        FROM urls u JOIN workspace_members m ON m.workspace_id = u.workspace_id AND m.user_id = ${actor.userId}
        WHERE u.code = ${code} AND (${only}::text IS NULL OR u.workspace_id = ${only}::text::bigint)
        FOR UPDATE OF u
      `
    : await q.queryRow<LinkAccess>`
        SELECT u.id, u.code, u.workspace_id::text AS "workspaceId", u.creator, u.original_url AS "originalUrl", m.role
        FROM urls u JOIN workspace_members m ON m.workspace_id = u.workspace_id AND m.user_id = ${actor.userId}
        WHERE u.code = ${code} AND (${only}::text IS NULL OR u.workspace_id = ${only}::text::bigint)
      `;
  if (row === null) throw APIError.notFound("URL not found");
  if (!allows(row.role, action, row.creator === actor.userId)) throw denied(action, row.role);
  return row;
}
