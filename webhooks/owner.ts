// Webhooks belong to workspaces; the url service, which knows the members and their roles, decides who
// may manage them (url/workspace-authorization.ts). Link events name the same workspace as their owner.
import { APIError, ErrCode } from "encore.dev/api";
import { url } from "~encore/clients";

/** callerWorkspace is the workspace the caller manages webhooks in: the given one, or their personal one. */
export async function callerWorkspace(workspaceId?: string): Promise<string> {
  return (await url.authorizeWorkspace({ workspaceId, action: "webhooks.manage" })).workspaceId;
}

/**
 * authorizeOwner lets the caller at a webhook of `owner`: a workspace they are not in answers not_found,
 * like a missing webhook, so nothing leaks whether it exists; too weak a role answers permission_denied.
 */
export async function authorizeOwner(owner: string): Promise<void> {
  try {
    await callerWorkspace(owner);
  } catch (err) {
    if (err instanceof APIError && err.code === ErrCode.NotFound) throw APIError.notFound("webhook not found");
    throw err;
  }
}
