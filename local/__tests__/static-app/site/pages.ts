import { api } from "encore.dev/api";

/** The page at the root, beside a single-segment route. */
export const home = api.static({ expose: true, path: "/", dir: "./public/home" });

/** Assets under a two-segment prefix, with extra headers. */
export const assets = api.static({
  expose: true,
  path: "/ui/*path",
  dir: "./public/assets",
  headers: { "Cache-Control": "public, max-age=60", "X-Extra": ["a", "b"] },
});

/** A custom 404 page. */
export const docs = api.static({ expose: true, path: "/docs/*path", dir: "./public/docs", notFound: "./public/missing.html" });

/** A single-page app taking every path nothing else takes, its index served with 200. */
export const spa = api.static({
  expose: true,
  path: "/!path",
  dir: "./public/spa",
  notFound: "./public/spa/index.html",
  notFoundStatus: 200,
});

/** Not exposed: never reachable from outside. */
export const internalFiles = api.static({ path: "/internal/*path", dir: "./public/docs" });
