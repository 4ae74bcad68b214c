// Analyzes the app once per content hash and keeps the result in <root>/.local/app-model.json,
// so vitest workers and `npm start` share one analysis. A hit costs a hash of the app's files,
// no TypeScript program; code that must not even load the compiler reads cache-file.ts alone.
import path from "node:path";
import { appModelFileOf } from "../model/layout.mjs";
import { analyzeApp } from "./analyze";
import { modelOf, readCache, writeEntry, type CacheEntry } from "./cache-file";
import { type AppModel, AppCompileError } from "../model/app-model";

export { appSourceFiles } from "./files";

/** The app model of the app at `root`, from the cache when its hash matches; throws AppCompileError. */
export function loadAppModel(root: string): AppModel {
  const absRoot = path.resolve(root);
  const { hash, entry } = readCache(absRoot);
  return modelOf(entry ?? analyzeAndCache(absRoot, hash));
}

/** Analyzes the app whose files hash to `hash` and caches the model, or the violations found. */
export function analyzeAndCache(absRoot: string, hash: string): CacheEntry {
  let entry: CacheEntry;
  try {
    entry = { hash, model: analyzeApp(absRoot) };
  } catch (err) {
    if (!(err instanceof AppCompileError)) throw err;
    entry = { hash, errors: err.errors };
  }
  writeEntry(appModelFileOf(absRoot), entry);
  return entry;
}
