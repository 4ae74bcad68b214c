// Workspace access for other services: the webhooks service owns webhooks per workspace, but only the
// url service knows who is a member with which role (url/access.ts).
import { api } from "encore.dev/api";
import { currentActor, workspaceAccess } from "./access";
import type { Action } from "./roles";

/** AuthorizeWorkspaceRequest names the workspace (the caller's personal one when absent) and the action. */
export interface AuthorizeWorkspaceRequest {
  workspaceId?: string;
  action: Action;
}

/**
 * authorizeWorkspace answers the workspace the caller (whose auth data the call carries) may do `action`
 * in, or throws as workspaceAccess does: not_found outside it, permission_denied for too weak a role.
 */
export const authorizeWorkspace = api(
  { expose: false, auth: true, method: "POST", path: "/internal/authorize-workspace" },
  async ({ workspaceId, action }: AuthorizeWorkspaceRequest): Promise<{ workspaceId: string }> => {
    const access = await workspaceAccess(currentActor(), workspaceId, action);
    return { workspaceId: access.workspaceId };
  },
);
