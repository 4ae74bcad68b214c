// The analysis in a process of its own: `npm start`, `gen` and `check` run it here when the cached
// model is stale, so the TypeScript compiler, swc and the SQL parser it loads leave with that process
// instead of staying resident in the app's. The child writes the cache entry the parent then reads.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { readWrittenEntry, type CacheEntry } from "./cache-file";

const self = fileURLToPath(import.meta.url);

/** Analyzes the app at `absRoot` in a child process and returns the entry it cached for `hash`. */
export function analyzeInChildProcess(absRoot: string, hash: string): CacheEntry {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawnSync(process.execPath, ["--import", tsx, self, absRoot, hash], { stdio: ["ignore", "inherit", "inherit"] });
  if (child.error) throw child.error;
  if (child.status !== 0) throw new Error(`the analysis of ${absRoot} failed (exit ${child.status ?? child.signal})`);
  const entry = readWrittenEntry(absRoot, hash);
  if (entry === null) throw new Error(`the analysis of ${absRoot} left no model for its files: were they changed while it ran?`);
  return entry;
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(self)) {
  const [absRoot, hash] = process.argv.slice(2);
  const { analyzeAndCache } = await import("./cache");
  analyzeAndCache(absRoot, hash);
}
