// The first migration of the embedded databases, in a process of its own: PGlite's WebAssembly memory
// grows while a database migrates and never shrinks, so `npm start` migrates a database it has not
// created yet in a child that exits, and then opens it already migrated.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { AppModel } from "../../model/app-model";
import { databaseDir } from "../../model/layout.mjs";

const self = fileURLToPath(import.meta.url);

/** Creates and migrates, in a child process, each embedded database of `model` that does not exist yet. */
export function migrateNewEmbeddedDatabases(model: AppModel): void {
  if (!model.databases.some((db) => !fs.existsSync(databaseDir(db.name)))) return;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawnSync(process.execPath, ["--import", tsx, self], { stdio: ["ignore", "inherit", "inherit"] });
  if (child.error) throw child.error;
  if (child.status !== 0) throw new Error(`migrating the embedded databases failed (exit ${child.status ?? child.signal})`);
}

if (process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(self)) {
  const { appModel } = await import("../core/context");
  const { closeAllDatabases, openDatabase } = await import("../sqldb/open");
  for (const db of appModel().databases) await openDatabase(db.name).ready();
  await closeAllDatabases();
}
