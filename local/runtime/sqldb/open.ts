// Which engine backs each Encore database, and the per-process registry behind RT.sqlDatabase(name).
// Embedded PGlite by default: persisted in <data dir>/db/<name>/ under `npm start`, in memory and migrated
// from scratch in each test process (like `encore test`, which recreates its test databases).
// With DATABASE_URL, a PostgreSQL server: database <name>, or test_<run>_<name> under tests, shared by
// every test process of one run (as Encore's test databases are) and dropped at the end of the run.
import crypto from "node:crypto";
import type { DatabaseModel } from "../../model/app-model";
import { databaseDir, pgliteTemplateDir } from "../../model/layout.mjs";
import { appModel, testMode } from "../core/context";
import { SqlDatabase, type EngineSpec } from "./database";
import { quoteIdent } from "./engine";
import { openPglite } from "./pglite-engine";
import { ENCORE_POOL, TEST_POOL, databaseUrl, ensureDatabase, openServer, withMaintenanceClient } from "./server-engine";

/** Where the engine choice comes from; the defaults are the process's. */
export interface EngineEnv {
  databaseUrl?: string;
  testMode: boolean;
  /** Names this process's test databases on a server; defaults to LOCAL_TEST_DB_RUN. */
  testRun?: string;
}

let processRun: string | null = null;

/** The id of this test run: LOCAL_TEST_DB_RUN (set by the vitest global setup), else one per process. */
export function testRunId(): string {
  processRun ??= process.env.LOCAL_TEST_DB_RUN || `p${process.pid}${crypto.randomBytes(3).toString("hex")}`;
  return processRun;
}

/**
 * The server-side name of an Encore database. Outside tests it is the Encore name, behind an optional
 * LOCAL_DB_NAME_PREFIX (tests that spawn `npm start` use it to keep their databases apart and droppable).
 */
export function serverDatabaseName(encoreName: string, env: EngineEnv): string {
  return env.testMode ? `test_${env.testRun ?? testRunId()}_${encoreName}` : `${process.env.LOCAL_DB_NAME_PREFIX ?? ""}${encoreName}`;
}

/**
 * After how long without a statement `npm start` closes an embedded database until its next one
 * (LOCAL_DB_IDLE_SECONDS, default 15; 0 keeps it open). Encore's local databases run in a PostgreSQL
 * container (cli/daemon/sqldb/docker/docker.go) that costs the app's process nothing while idle; an
 * open PGlite instance holds about 20 MiB, and opening one again takes a few hundred milliseconds.
 */
function idleCloseMs(): number | undefined {
  const seconds = Number(process.env.LOCAL_DB_IDLE_SECONDS ?? 15);
  return seconds > 0 ? seconds * 1000 : undefined;
}

/** How to open the given database in the given environment. */
export function engineSpec(db: DatabaseModel, env: EngineEnv): EngineSpec {
  const serverUrl = env.databaseUrl;
  if (serverUrl) {
    const name = serverDatabaseName(db.name, env);
    const url = databaseUrl(serverUrl, name);
    return {
      async open() {
        await ensureDatabase(serverUrl, name);
        return openServer(db.name, url, env.testMode ? TEST_POOL : ENCORE_POOL);
      },
      oneConnection: false,
      connString: () => url,
    };
  }
  return {
    open: () =>
      openPglite(
        db.name,
        env.testMode ? { memory: true, templateDir: pgliteTemplateDir } : { dir: databaseDir(db.name), closeWhenIdleMs: idleCloseMs() },
      ),
    oneConnection: true,
    connString() {
      throw new Error(
        `database ${db.name} runs on embedded PGlite, which has no connection string; set DATABASE_URL to use a PostgreSQL server`,
      );
    },
  };
}

const opened = new Map<string, SqlDatabase>();

/** The process's SqlDatabase for an Encore database name; nothing connects until the first statement. */
export function openDatabase(encoreName: string): SqlDatabase {
  const existing = opened.get(encoreName);
  if (existing) return existing;
  const declared = appModel().databases;
  const model = declared.find((d) => d.name === encoreName);
  if (!model) {
    const names = declared.map((d) => d.name).join(", ") || "none";
    throw new Error(`unknown database "${encoreName}": the app declares these databases: ${names}`);
  }
  const db = new SqlDatabase(model, engineSpec(model, { databaseUrl: process.env.DATABASE_URL, testMode }));
  opened.set(encoreName, db);
  return db;
}

/** Closes every database this process opened (for shutdown and test teardown). */
export async function closeAllDatabases(): Promise<void> {
  const all = [...opened.values()];
  opened.clear();
  await Promise.all(all.map((db) => db.close()));
}

/** Drops the server databases of a test run (the vitest global teardown calls this). */
export function dropTestDatabases(run: string, serverUrl = process.env.DATABASE_URL): Promise<string[]> {
  return dropDatabasesWithPrefix(`test_${run}_`, serverUrl);
}

/** Drops every server database whose name starts with `prefix`; returns their names. */
export async function dropDatabasesWithPrefix(prefix: string, serverUrl = process.env.DATABASE_URL): Promise<string[]> {
  if (!serverUrl) return [];
  return withMaintenanceClient(serverUrl, async (c) => {
    const found = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE left(datname, $1) = $2", [
      prefix.length,
      prefix,
    ]);
    for (const { datname } of found.rows) await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(datname)} WITH (FORCE)`);
    return found.rows.map((r) => r.datname);
  });
}
