// `npm start`, `npm run gen`, `npm run check`: the local stand-in for `encore run` / `encore check`.
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { modelOf, readCache } from "./compiler/cache-file";
import { AppCompileError, type AppModel } from "./model/app-model";
import { COMBINED_MAIN, generate, writeEncoreGen } from "./codegen/generate";
import { appRoot, buildDir, genDirOf } from "./model/layout.mjs";

/**
 * Analyzes the app like Encore's compiler; on a rule violation prints it and exits 1. The analyzer
 * (and the TypeScript compiler with it) runs only when the cached analysis is stale, and then in a
 * process of its own that exits when done.
 */
async function compile(): Promise<AppModel> {
  try {
    const absRoot = path.resolve(appRoot);
    const { hash, entry } = readCache(absRoot);
    return modelOf(entry ?? (await import("./compiler/analyze-process")).analyzeInChildProcess(absRoot, hash));
  } catch (e) {
    if (e instanceof AppCompileError) {
      process.stderr.write(e.message + "\n");
      process.exit(1);
    }
    throw e;
  }
}

async function start(): Promise<void> {
  const model = await compile();
  generate(model);
  // Before anything opens the databases: the app's modules may start work as they load.
  const { lockDataDir, DataDirBusy } = await import("./runtime/lifecycle/data-lock");
  const { dataDir } = await import("./model/layout.mjs");
  if (!process.env.ENCORE_LOCAL_DATA_DIR) {
    const { adoptEarlierData } = await import("./runtime/lifecycle/data-dir");
    for (const line of adoptEarlierData(buildDir(appRoot), dataDir)) process.stdout.write(line + "\n");
  }
  try {
    lockDataDir(dataDir);
  } catch (e) {
    if (!(e instanceof DataDirBusy)) throw e;
    process.stderr.write(e.message + "\n");
    process.exit(1);
  }
  if (!process.env.DATABASE_URL) {
    const { migrateNewEmbeddedDatabases } = await import("./runtime/lifecycle/migrate-embedded");
    migrateNewEmbeddedDatabases(model);
  }
  const { devSecretNames, ensureDevSecrets } = await import("./runtime/lifecycle/dev-secrets");
  ensureDevSecrets(devSecretNames(process.argv));
  register("./hooks/node-hooks.mjs", import.meta.url);
  const { startDevDashboard } = await import("./devtools/dash");
  await startDevDashboard();
  if (!process.env.DATABASE_URL) {
    const { serveEmbeddedDatabases } = await import("./ops/db-serve");
    await serveEmbeddedDatabases(dataDir);
  }
  if (process.env.LOCAL_RUN_CRON === "1") {
    const { startCronScheduler } = await import("./runtime/cron");
    const { onShutdown } = await import("./runtime/lifecycle/run");
    onShutdown(startCronScheduler());
  }
  await import(pathToFileURL(path.join(genDirOf(appRoot), COMBINED_MAIN)).href);
}

/**
 * `npm run migrate`: applies every database's migrations on the server named by DATABASE_URL, or
 * on the servers of an infra config (`npm run migrate -- --config infra.config.json`).
 */
async function migrate(): Promise<void> {
  const model = await compile();
  const { migrateTargets, targetsOnServer } = await import("./ops/migrate");
  const configAt = process.argv.indexOf("--config");
  let targets;
  if (configAt > 0 && process.argv[configAt + 1]) {
    const { targetsFromInfraConfig } = await import("./ops/infra-config");
    targets = targetsFromInfraConfig(process.argv[configAt + 1], model);
  } else if (process.env.DATABASE_URL) {
    targets = targetsOnServer(process.env.DATABASE_URL, model);
  } else {
    process.stderr.write(
      "set DATABASE_URL to the PostgreSQL server (postgres://user:pass@db:5432/postgres), or pass --config infra.config.json\n",
    );
    process.exit(2);
  }
  for (const r of await migrateTargets(targets)) {
    const what = r.applied.length ? `applied ${r.applied.join(", ")}` : "up to date";
    process.stdout.write(`${r.database}: ${what}\n`);
  }
}

/** `npm run db -- conn-uri <db>` / `npm run db -- shell <db> [psql arguments]`: see ops/db-command.ts. */
async function db(): Promise<void> {
  const model = await compile();
  const { dbCommand, DbCommandError } = await import("./ops/db-command");
  try {
    process.exitCode = await dbCommand(model, process.argv.slice(3));
  } catch (e) {
    if (!(e instanceof DbCommandError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exitCode = 1;
  }
}

const commands: Record<string, () => Promise<void> | void> = {
  gen: async () => {
    generate(await compile());
  },
  check: async () => {
    const model = await compile();
    process.stdout.write(`ok: ${model.services.length} services, ${model.endpoints.length} endpoints\n`);
  },
  start,
  migrate,
  db,
  /** `npm run reset`: deletes what npm start keeps (databases, bucket files, journal, development key). */
  reset: async () => {
    const { wipeData } = await import("./runtime/lifecycle/data-dir");
    const { dataDir } = await import("./model/layout.mjs");
    for (const line of wipeData([dataDir, buildDir(appRoot)])) process.stdout.write(line + "\n");
    if (process.env.DATABASE_URL) process.stdout.write("databases on the DATABASE_URL server are left as they are\n");
  },
  /** CI only: encore.gen/ as the Encore CLI would write it (see .ci/encore-test-shape.sh). */
  "encore-gen": async () => {
    process.stdout.write(`wrote ${path.relative(process.cwd(), writeEncoreGen(await compile())) || "."}\n`);
  },
};

const name = process.argv[2] ?? "";
const command = commands[name];
if (!command) {
  process.stderr.write(`usage: tsx local/cli.ts <${Object.keys(commands).join("|")}>\n`);
  process.exit(2);
}
try {
  await command();
} catch (e) {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
