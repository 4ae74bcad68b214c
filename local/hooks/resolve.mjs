// The two redirections that put the local runtime under the unchanged encore.dev SDK; shared by the
// vite plugin (tests) and the Node resolve hook (npm start). Plain JS: Node loads it in its hooks thread.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appRoot, genDirOf } from "../model/layout.mjs";

const localDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Our stand-in for the SDK's native binding. */
export const napiPath = path.join(localDir, "runtime", "napi.ts");

/** Generated ~encore/* modules of the app being run. */
const genDir = genDirOf(appRoot);

const SDK_RUNTIME_DIR = `${path.sep}encore.dev${path.sep}dist${path.sep}internal${path.sep}runtime${path.sep}`;

/**
 * Returns the absolute file that replaces `specifier` imported from `importer`, or null to leave the
 * import alone: the SDK's "./napi/napi.cjs" and "~encore/..." (clients, auth).
 */
export function localResolve(specifier, importer) {
  if (specifier === "./napi/napi.cjs" && importer && importer.includes(SDK_RUNTIME_DIR)) return napiPath;
  if (specifier.startsWith("~encore/")) {
    const base = path.join(genDir, specifier.slice("~encore/".length));
    for (const candidate of [base, `${base}.js`, `${base}.ts`, path.join(base, "index.js"), path.join(base, "index.ts")]) {
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
    throw new Error(`cannot resolve ${specifier}: ${genDir} has no such module; run \`npm run gen\``);
  }
  return null;
}
