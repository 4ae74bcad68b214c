// The dashboard's files: its own UI modules (local/devtools/dash/ui) and the UI libraries' ESM builds served
// straight from node_modules through an import map, so there is no build step to run or to fail.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const uiDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "ui");
const require = createRequire(import.meta.url);

/** Import-map name to the file in node_modules. */
const VENDOR: Record<string, () => string> = {
  "preact.mjs": () => require.resolve("preact"),
  "preact-hooks.mjs": () => require.resolve("preact/hooks"),
  "htm.mjs": () => path.join(path.dirname(require.resolve("htm")), "htm.mjs"),
  "dagre.mjs": () => path.join(path.dirname(require.resolve("@dagrejs/dagre")), "dagre.esm.js"),
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** A static file for a URL path, or null when there is none. */
export function staticFile(urlPath: string): { file: string; type: string } | null {
  if (urlPath === "/") return { file: path.join(uiDir, "index.html"), type: TYPES[".html"] };
  const vendor = /^\/vendor\/([\w.-]+)$/.exec(urlPath);
  if (vendor) {
    const resolve = VENDOR[vendor[1]];
    return resolve ? { file: resolve(), type: TYPES[".js"] } : null;
  }
  const ui = /^\/ui\/([\w-]+\.(?:js|css))$/.exec(urlPath);
  if (!ui) return null;
  const file = path.join(uiDir, ui[1]);
  return fs.existsSync(file) ? { file, type: TYPES[path.extname(file)] } : null;
}
