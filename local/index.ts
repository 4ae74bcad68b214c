// The door into the local runtime for code outside local/: the benchmarks import this file,
// tests import local/testing.ts (which re-exports it). Nothing outside local/ imports deeper files.
export { freshAppState, removeAppState, runCli, startApp, type AppState, type SpawnedApp } from "./e2e/spawn-app";
export { databaseDir } from "./layout.mjs";
export { databaseUrl } from "./native/sqldb/server-engine";
export { loadAppModel } from "./appmodel/cache";
export type { AppModel } from "./appmodel/model";
