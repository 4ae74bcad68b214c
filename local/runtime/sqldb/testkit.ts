// Helpers for this directory's tests: a DatabaseModel over a temporary migrations directory, and the
// engines to run each test on (PGlite always; the server when DATABASE_URL is set).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import type { DatabaseModel } from "../../model/app-model";
import { testScratchDir } from "../core/context";
import { Cursor, QueryArgs } from "./cursor";
import { SqlDatabase } from "./database";
import type { Engine } from "./engine";
import { dropTestDatabases, engineSpec, type EngineEnv } from "./open";

/** A database model whose migrations are the given files, in a fresh directory of the worker's test scratch. */
export function tempDatabase(files: Record<string, string>, name = `t${crypto.randomBytes(4).toString("hex")}`): DatabaseModel {
  const dir = fs.mkdtempSync(path.join(testScratchDir(), "sqldb-migrations-"));
  for (const [file, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), sql);
  return {
    name,
    service: "test",
    file: "test/db.ts",
    loc: { file: "test/db.ts", line: 1, column: 1 },
    migrationsDir: dir,
    migrations: readModelMigrations(dir),
  };
}

/** Re-reads the migration list after files were added to the directory. */
export function readModelMigrations(dir: string): DatabaseModel["migrations"] {
  return fs
    .readdirSync(dir)
    .map((f) => /^(\d+)_([^.]+)\.up\.sql$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ number: Number(m[1]), description: m[2], file: m[0] }))
    .sort((a, b) => a.number - b.number);
}

/** One engine under test. */
export interface TestEngine {
  name: "pglite" | "server";
  env: EngineEnv;
  open(db: DatabaseModel): SqlDatabase;
  /** Drops what the engine created on the server. */
  cleanup(): Promise<void>;
}

const serverUrl = process.env.DATABASE_URL;

/** The engines available here: embedded always, the server when DATABASE_URL is set. */
export function testEngines(): TestEngine[] {
  const run = `u${crypto.randomBytes(4).toString("hex")}`;
  const make = (name: TestEngine["name"], env: EngineEnv): TestEngine => ({
    name,
    env,
    open: (db) => new SqlDatabase(db, engineSpec(db, env)),
    cleanup: async () => {
      if (env.databaseUrl) await dropTestDatabases(run, env.databaseUrl);
    },
  });
  const engines = [make("pglite", { testMode: true })];
  if (serverUrl) engines.push(make("server", { testMode: true, databaseUrl: serverUrl, testRun: run }));
  return engines;
}

/** OnEngine is what a describeOnEngines block gets: the engine and, inside tests, its database. */
export interface OnEngine {
  engine: TestEngine;
  readonly db: SqlDatabase;
}

/**
 * describeOnEngines declares `body` once per engine, as "<title> on <engine>", over a fresh database
 * migrated with `schema` that is closed and dropped after the block.
 */
export function describeOnEngines(title: string, schema: string, body: (t: OnEngine) => void): void {
  for (const engine of testEngines()) {
    describe(`${title} on ${engine.name}`, () => {
      let db: SqlDatabase | null = null;
      beforeAll(() => {
        db = engine.open(tempDatabase({ "1_schema.up.sql": schema }));
      });
      afterAll(async () => {
        await db?.close();
        await engine.cleanup();
      });
      body({
        engine,
        get db(): SqlDatabase {
          if (db === null) throw new Error(`the ${engine.name} database exists only inside the block's tests`);
          return db;
        },
      });
    });
  }
}

/** All rows of a query, converted as the SDK converts them. */
export async function rows(db: { query(sql: string, args: QueryArgs): Promise<Cursor> }, sql: string, ...params: unknown[]) {
  const cursor = await db.query(sql, new QueryArgs(params));
  const out: Record<string, unknown>[] = [];
  for (let row = await cursor.next(); row !== null; row = await cursor.next()) out.push(row.values());
  return out;
}

/** The first row of a query. */
export async function row(db: { query(sql: string, args: QueryArgs): Promise<Cursor> }, sql: string, ...params: unknown[]) {
  return (await rows(db, sql, ...params))[0];
}

/** A SqlDatabase over an already open engine, without migrating it (its owners marked, as on one connection: always safe). */
export function viewOf(engine: Engine): SqlDatabase {
  const model = { ...tempDatabase({}), migrationsDir: null };
  return new SqlDatabase(model, { open: async () => engine, connString: () => "", oneConnection: true });
}

/** The error a promise rejects with; fails when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected the promise to reject");
}
