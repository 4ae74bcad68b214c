// Where the local runtime reads and writes, in one place: which app it runs, what it generates from
// that app's source (.local/ beside encore.app) and where the running app keeps its state (databases,
// bucket files, generated development secrets, test scratch). Plain JS: Node's resolve hook loads it.
import path from "node:path";
import { fileURLToPath } from "node:url";

const localDir = path.dirname(fileURLToPath(import.meta.url));

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

/** State of the running app: .local/, or ENCORE_LOCAL_DATA_DIR (benchmarks, e2e tests, CI). */
export const dataDir = process.env.ENCORE_LOCAL_DATA_DIR ? path.resolve(process.env.ENCORE_LOCAL_DATA_DIR) : buildDir(appRoot);

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
