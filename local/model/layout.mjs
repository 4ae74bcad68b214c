// Where the local runtime reads and writes, in one place: which app it runs, what it generates from
// that app's source (.local/ beside encore.app) and where the running app keeps its state (databases,
// bucket files, generated development secrets, test scratch): outside the app folder, which
// `encore build docker` copies whole into the image. Plain JS: Node's resolve hook loads it.
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const localDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The app the local runtime runs: the directory holding encore.app, by default the one above local/.
 * ENCORE_LOCAL_APP_ROOT points it at another app (the runtime's own test fixtures).
 */
export const appRoot = process.env.ENCORE_LOCAL_APP_ROOT ? path.resolve(process.env.ENCORE_LOCAL_APP_ROOT) : path.dirname(localDir);

/** What is derived from an app's source and can be regenerated: <root>/.local. */
export function buildDir(root) {
  return path.join(root, ".local");
}

/** Generated ~encore/* modules and the entrypoint of the app at `root`. */
export function genDirOf(root) {
  return path.join(buildDir(root), "gen");
}

/** The cached app model of the app at `root`. */
export function appModelFileOf(root) {
  return path.join(buildDir(root), "app-model.json");
}

/**
 * The user's cache directory as Go's os.UserCacheDir finds it, where the Encore CLI keeps its own local
 * data (cli/daemon/objects/manager.go, cli/daemon/secret/secret.go: <cache>/encore/...).
 */
function userCacheDir() {
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Caches");
  if (process.platform === "win32") return process.env.LOCALAPPDATA || path.join(os.homedir(), "AppData", "Local");
  const xdg = process.env.XDG_CACHE_HOME;
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), ".cache");
}

/** Where the app at `root` keeps its state by default: <cache>/encore-local/<folder>-<hash of its path>, one per checkout. */
export function defaultDataDir(root, cacheDir = userCacheDir()) {
  const id = crypto.createHash("sha256").update(path.resolve(root)).digest("hex").slice(0, 12);
  return path.join(cacheDir, "encore-local", `${path.basename(path.resolve(root))}-${id}`);
}

/** State of the running app: ENCORE_LOCAL_DATA_DIR (benchmarks, e2e tests, CI), else defaultDataDir. */
export const dataDir = process.env.ENCORE_LOCAL_DATA_DIR ? path.resolve(process.env.ENCORE_LOCAL_DATA_DIR) : defaultDataDir(appRoot);

/** What npm start keeps in the data dir (an earlier version kept it in <root>/.local): what reset deletes and a start adopts. */
export const DATA_ENTRIES = ["db", "objects", "pubsub", "dev-secrets.cue", "pglite", "test", "traces", "db-server.json"];

/** The embedded PostgreSQL of one database under `npm start` (of this process, or of the app at `dir`). */
export function databaseDir(name, dir = dataDir) {
  return path.join(dir, "db", name);
}

/** Migrated PGlite images the tests copy their in-memory databases from. */
export const pgliteTemplateDir = path.join(dataDir, "pglite");

/** Bucket files under `npm start`. */
export const objectsDir = path.join(dataDir, "objects");

/** Development values `npm start` generated for unset secrets (see local/cli.ts). */
export const devSecretsFile = path.join(dataDir, "dev-secrets.cue");

/** Per-worker test scratch: <testScratchRoot>/<pid>/, removed when the worker has exited. */
export const testScratchRoot = path.join(dataDir, "test");
