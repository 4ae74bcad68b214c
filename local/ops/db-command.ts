// `npm run db -- conn-uri <db>` and `npm run db -- shell <db> [psql arguments]`, as `encore db conn-uri`
// and `encore db shell` (cli/cmd/encore/db.go): the database named, or the one whose migrations folder
// encloses the current directory. With DATABASE_URL, that server's database; otherwise the embedded
// database, served by the running `npm start` (or, for `shell` when none runs, by this command
// itself for as long as psql runs).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { AppModel } from "../model/app-model";
import { appRoot, databaseDir, dataDir } from "../model/layout.mjs";
import { lockDataDir, DataDirBusy, releaseDataDir } from "../runtime/lifecycle/data-lock";
import { serverDatabaseName } from "../runtime/sqldb/open";
import { databaseUrl } from "../runtime/sqldb/server-engine";
import { openPglite } from "../runtime/sqldb/pglite-engine";
import { runningPort, wireUri } from "./db-endpoint";
import { serveDatabases } from "./db-wire";

export class DbCommandError extends Error {}

const USAGE = "usage: npm run db -- conn-uri [<database>] | npm run db -- shell [<database>] [psql arguments...]";

/** The database a command names, or the one whose migrations folder holds the current directory (encore db shell's rule). */
export function pickDatabase(model: AppModel, named: string | undefined, cwd = process.env.INIT_CWD ?? process.cwd()): string {
  if (named !== undefined) {
    const name = named.replace(/\/$/, "");
    if (!model.databases.some((d) => d.name === name)) {
      const all = model.databases.map((d) => d.name).join(", ") || "none";
      throw new DbCommandError(`no such database found: ${name} (the app declares: ${all})`);
    }
    return name;
  }
  const root = path.resolve(appRoot);
  for (let dir = path.resolve(cwd); dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
    const db = model.databases.find((d) => d.migrationsDir !== null && path.dirname(path.resolve(root, d.migrationsDir)) === dir);
    if (db) return db.name;
  }
  throw new DbCommandError(
    "could not find an Encore service with a database in this directory (or any of the parent directories).\n\n" +
      "Note: name the database to connect to it directly: npm run db -- shell <database-name>",
  );
}

/** The URI of a database on the DATABASE_URL server, or on the running npm start's wire server; null when neither is there. */
export function connUri(database: string): string | null {
  if (process.env.DATABASE_URL) return databaseUrl(process.env.DATABASE_URL, serverDatabaseName(database, { testMode: false }));
  const port = runningPort(dataDir);
  return port === null ? null : wireUri(port, database);
}

/** psql's path in PATH, or null when it is not installed. */
function findPsql(): string | null {
  const names = process.platform === "win32" ? ["psql.exe"] : ["psql"];
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = path.join(dir, name);
      try {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      } catch {
        // Not in this directory.
      }
    }
  }
  return null;
}

/** Runs psql on `uri` with the caller's terminal; resolves with its exit code. Ctrl-C goes to psql alone, as under encore db shell. */
function runPsql(psql: string, uri: string, args: string[]): Promise<number> {
  const ignore = () => {};
  process.on("SIGINT", ignore);
  return new Promise((resolve, reject) => {
    const child = spawn(psql, [uri, ...args], { stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  }).finally(() => process.off("SIGINT", ignore)) as Promise<number>;
}

/**
 * With no npm start running: takes the data directory (so none starts meanwhile), opens the embedded
 * database and serves it on a free port while `use` runs.
 */
async function withOwnServer(database: string, use: (uri: string) => Promise<number>): Promise<number> {
  const dir = databaseDir(database);
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    throw new DbCommandError(`database ${database} has no data yet in ${dir}: npm start creates and migrates it`);
  }
  try {
    lockDataDir(dataDir);
  } catch (e) {
    if (e instanceof DataDirBusy) throw new DbCommandError(`${e.message}`);
    throw e;
  }
  const engine = await openPglite(database, { dir });
  const server = await serveDatabases(0, (db) => (db === database ? Promise.resolve(engine) : null));
  try {
    return await use(wireUri(server.port, database));
  } finally {
    await server.close();
    await engine.close();
    releaseDataDir();
  }
}

/** Runs `npm run db -- <args>`; resolves with the exit code. */
export async function dbCommand(model: AppModel, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const named = rest[0] !== undefined && !rest[0].startsWith("-") ? rest[0] : undefined;
  const psqlArgs = named === undefined ? rest : rest.slice(1);
  if (sub === "conn-uri") {
    const database = pickDatabase(model, named);
    const uri = connUri(database);
    if (uri === null) {
      throw new DbCommandError(
        `npm start is not running: it serves the embedded database ${database} on 127.0.0.1:$DB_PORT (9500) while it runs. ` +
          `Start it (DB_PORT=off turns that off), or set DATABASE_URL to use a PostgreSQL server`,
      );
    }
    process.stdout.write(uri + "\n");
    return 0;
  }
  if (sub === "shell") {
    const database = pickDatabase(model, named);
    const psql = findPsql();
    if (psql === null) {
      throw new DbCommandError(
        "psql is not installed (no psql in PATH): install PostgreSQL's client (Debian/Ubuntu: apt-get install postgresql-client; " +
          `macOS: brew install libpq), or point any PostgreSQL client at the URI of npm run db -- conn-uri ${database}`,
      );
    }
    const uri = connUri(database);
    if (uri !== null) return runPsql(psql, uri, psqlArgs);
    return withOwnServer(database, (own) => runPsql(psql, own, psqlArgs));
  }
  throw new DbCommandError(USAGE);
}
