// The door into the local runtime for code outside local/: the benchmarks import this file,
// tests import local/testing.ts (which re-exports it). Nothing outside local/ imports deeper files.
export { freshAppState, removeAppState, runCli, startApp, type AppState, type SpawnedApp } from "./devtools/e2e/spawn-app";
export { databaseDir } from "./model/layout.mjs";
export { databaseUrl } from "./runtime/sqldb/server-engine";
export { loadAppModel } from "./compiler/cache";
export type { AppModel } from "./model/app-model";
