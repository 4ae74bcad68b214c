// What an API key may do: its scopes, and the scope each workspace action needs (url/access.ts asks).
import type { Action } from "./roles";

/** KeyScope is one permission an API key can carry. */
export type KeyScope = "links:read" | "links:write" | "analytics:read";

/** KEY_SCOPES lists every scope. */
export const KEY_SCOPES: readonly KeyScope[] = ["links:read", "links:write", "analytics:read"];

/** SCOPE_OF is the scope each action needs from a key; actions absent here need a signed-in person. */
const SCOPE_OF: Partial<Record<Action, KeyScope>> = {
  "link.read": "links:read",
  "link.create": "links:write",
  "link.change": "links:write",
  "analytics.read": "analytics:read",
};

/** scopeFor returns the scope a key needs for `action`, or null when no key may do it. */
export function scopeFor(action: Action): KeyScope | null {
  return SCOPE_OF[action] ?? null;
}

/** isKeyScope narrows a string read from a request, a row or auth data. */
export function isKeyScope(value: string): value is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(value);
}
