// The analyzed app model's cache file, <root>/.local/app-model.json, keyed by a content hash. Reading it
// loads no TypeScript compiler (about 46 MB), so `npm start` and test workers never load one on a hit.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appModelFileOf } from "../model/layout.mjs";
import { appFiles } from "./files";
import { type AppModel, AppCompileError, type CompileError } from "../model/app-model";

/** What the cache file holds: the model, or the violations found (also worth sharing). */
export type CacheEntry = { hash: string; model: AppModel } | { hash: string; errors: CompileError[] };

const analyzerDir = path.dirname(fileURLToPath(import.meta.url));

/** The model it produces, whose shape a cached model must match. */
const modelDir = path.join(analyzerDir, "..", "model");

/** The analyzer's own sources and the model's: a change to them must invalidate every cached model. */
function analyzerSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if ((e.name.endsWith(".ts") || e.name.endsWith(".mjs")) && !e.name.endsWith(".test.ts")) out.push(p);
    }
  };
  walk(analyzerDir);
  walk(modelDir);
  return out.sort();
}

/**
 * npm's record of what is installed in the node_modules imports resolve from (the nearest one up from
 * the root), so installing or removing a package re-checks the imports; null when there is none.
 */
function installedPackages(root: string): Buffer | null {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "node_modules", ".package-lock.json");
    if (fs.existsSync(file)) return fs.readFileSync(file);
    if (path.dirname(dir) === dir) return null;
  }
}

/** The content hash: the app root, encore.app, every analyzed file, every .sql file name, the installed packages, the analyzer. */
export function appHash(root: string): string {
  const h = crypto.createHash("sha256");
  const add = (label: string, data: string | Buffer): void => {
    h.update(`${label}\0${data.length}\0`);
    h.update(data);
  };
  add("root", root);
  add("encore.app", fs.readFileSync(path.join(root, "encore.app")));
  const files = appFiles(root);
  for (const rel of files.ts) add(`ts:${rel}`, fs.readFileSync(path.join(root, rel)));
  for (const rel of files.sql) add("sql", rel);
  add("installed", installedPackages(root) ?? "");
  for (const p of analyzerSources()) add(`analyzer:${path.relative(analyzerDir, p)}`, fs.readFileSync(p));
  return h.digest("hex");
}

function readEntry(file: string): CacheEntry | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as CacheEntry;
  } catch {
    return null;
  }
}

/** Writes through a temporary file and a rename, so a concurrent reader never sees half a file. */
export function writeEntry(file: string, entry: CacheEntry): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(entry));
  fs.renameSync(tmp, file);
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether an entry still holds for what is on disk now: the analysis also read the `api.static`
 * directories (built ones, like web/dist), which the hash does not cover, so one built after an
 * analysis that missed it (or removed after one that found it) must be checked again.
 */
function staticDirsUnchanged(absRoot: string, entry: CacheEntry): boolean {
  if ("errors" in entry) return !entry.errors.some((e) => e.rule === "static-assets-dir");
  return entry.model.endpoints.every((ep) => ep.staticAssets === null || isDirectory(path.join(absRoot, ep.staticAssets.dir)));
}

/**
 * The entry an analysis has just written for `hash`, while the files still hash to it. Its static
 * directories are not checked again: that analysis read them, and a violation it found about them
 * (say web/dist not built yet) is the answer to report, not a sign the files changed.
 */
export function readWrittenEntry(absRoot: string, hash: string): CacheEntry | null {
  const entry = readEntry(appModelFileOf(absRoot));
  return entry?.hash === hash && appHash(absRoot) === hash ? entry : null;
}

/** The app's current hash, and its cache entry when that entry was made from the same files. */
export function readCache(absRoot: string): { hash: string; entry: CacheEntry | null } {
  const hash = appHash(absRoot);
  const entry = readEntry(appModelFileOf(absRoot));
  return { hash, entry: entry?.hash === hash && staticDirsUnchanged(absRoot, entry) ? entry : null };
}

/** The model an entry holds; throws AppCompileError when the analysis found violations. */
export function modelOf(entry: CacheEntry): AppModel {
  if ("errors" in entry) throw new AppCompileError(entry.errors);
  return entry.model;
}

/** The cached model of the app at `root` when the cache matches its files, else null; throws AppCompileError when the cached analysis found violations. */
export function cachedAppModel(root: string): AppModel | null {
  const { entry } = readCache(path.resolve(root));
  return entry && modelOf(entry);
}
