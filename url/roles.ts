// Workspace roles and what each may do: the one table every access check reads (url/access.ts).

/** Role is a member's standing in a workspace, strongest first. */
export type Role = "owner" | "admin" | "member" | "viewer";

/** ROLES lists every role, strongest first. */
export const ROLES: readonly Role[] = ["owner", "admin", "member", "viewer"];

/**
 * Action is something done in a workspace. "link.change" covers PATCH and DELETE of a link; a member
 * may do it to the links it created, an admin to any (see allows).
 */
export type Action =
  | "link.read"
  | "link.create"
  | "link.change"
  | "analytics.read"
  | "members.read"
  | "members.invite"
  | "members.remove"
  | "members.role"
  | "keys.manage"
  | "webhooks.manage"
  | "audit.read"
  | "workspace.delete";

/** WEAKEST_ROLE is the least role that may do each action (to any link, for the link actions). */
const WEAKEST_ROLE: Record<Action, Role> = {
  "link.read": "viewer",
  "analytics.read": "viewer",
  "members.read": "viewer",
  "link.create": "member",
  "link.change": "admin",
  "members.invite": "admin",
  "members.remove": "admin",
  "keys.manage": "admin",
  "webhooks.manage": "admin",
  "audit.read": "admin",
  "members.role": "owner",
  "workspace.delete": "owner",
};

/** atLeast tells whether `role` is as strong as `weakest`. */
export function atLeast(role: Role, weakest: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(weakest);
}

/** allows tells whether `role` may do `action`; `ownLink` says the link in question is the member's own. */
export function allows(role: Role, action: Action, ownLink = false): boolean {
  if (action === "link.change" && ownLink && role === "member") return true;
  return atLeast(role, WEAKEST_ROLE[action]);
}

/** isRole narrows a string read from a request or a row. */
export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
