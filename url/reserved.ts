// Names no link may take: /<name> would be shadowed by a route of the app, or read as one of its pages.

/**
 * ROUTE_SEGMENTS are the static first path segments of the app's endpoints. Encore's router prefers a
 * static segment to `/:code`, so a link named like one could never be reached (matchit 0.7.3, which
 * runtimes/core/src/api/gateway/router.rs routes with).
 * reserved.test.ts checks this list against the routes the app really declares, both ways.
 */
export const ROUTE_SEGMENTS = ["admin", "analytics", "auth", "internal", "invites", "shorten", "tags", "urls", "webhooks", "workspaces"];

/**
 * RESERVED_WORDS are kept free for routes the app or its gateway has or is likely to add, and for
 * names a visitor would take for one of its pages rather than somebody's link.
 */
const RESERVED_WORDS = [
  "__encore",
  "about",
  "account",
  "api",
  "app",
  "assets",
  "dashboard",
  "docs",
  "health",
  "help",
  "login",
  "logout",
  "me",
  "new",
  "public",
  "qr",
  "search",
  "settings",
  "signup",
  "static",
  "stats",
  "status",
  "www",
];

const RESERVED = new Set([...ROUTE_SEGMENTS, ...RESERVED_WORDS]);

/** isReserved tells whether `name` is kept from links, in any letter case (an alias "Shorten" would only confuse). */
export function isReserved(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}
