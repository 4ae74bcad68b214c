// The web app: one page at / and its assets under /ui/, both files served by Encore's runtime.
// /:code takes every single-segment path, so the page sits at / exactly and the assets under a
// two-segment prefix: "ui" is too short to be a code or an alias, so no short link shadows them.
import { api } from "encore.dev/api";

/** The page itself; revalidated on each visit so a new deploy is picked up at once. */
export const page = api.static({
  expose: true,
  path: "/",
  dir: "./dist/page",
  headers: { "Cache-Control": "no-cache" },
});

/** Scripts and styles, named by content hash so they can be cached for good. */
export const assets = api.static({
  expose: true,
  path: "/ui/*path",
  dir: "./dist/ui",
  headers: { "Cache-Control": "public, max-age=31536000, immutable" },
});
