// How long a server database's pool keeps an idle connection: under `npm start` as long as Encore's
// pool (10 minutes), so a statement after a quiet spell finds its connection, with its prepared
// statements and plans, still open; in tests 5 s, since a test file's pools are never closed.
import crypto from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { NEEDS_DATABASE_URL, skipUnless } from "../../testing";
import { SqlDatabase } from "./database";
import { dropDatabasesWithPrefix, dropTestDatabases, engineSpec } from "./open";
import { TEST_POOL } from "./server-engine";
import { row, tempDatabase } from "./testkit";

const serverUrl = process.env.DATABASE_URL;
skipUnless(serverUrl, NEEDS_DATABASE_URL);

/** A name of this file's own, so that the app-mode database (no test prefix) can be dropped after. */
const prefix = `pool_limits_${crypto.randomBytes(4).toString("hex")}_`;
const run = `p${crypto.randomBytes(4).toString("hex")}`;
const opened: SqlDatabase[] = [];

afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await dropDatabasesWithPrefix(prefix, serverUrl);
  await dropTestDatabases(run, serverUrl);
});

/** A migrated database on the server, opened as `npm start` (testMode false) or a test opens it. */
function open(testMode: boolean): SqlDatabase {
  const model = tempDatabase({ "1_schema.up.sql": "CREATE TABLE t (id int);" }, `${prefix}${testMode ? "test" : "app"}`);
  const db = new SqlDatabase(model, engineSpec(model, { databaseUrl: serverUrl, testMode, testRun: run }));
  opened.push(db);
  return db;
}

/** The server process behind the connection that runs this statement. */
const backend = async (db: SqlDatabase) => (await row(db, "SELECT pg_backend_pid() AS pid")).pid as number;

it("keeps npm start's idle connection past the test pools' 5 s, and closes a test's", { timeout: 30_000 }, async () => {
  const app = open(false);
  const test = open(true);
  const before = { app: await backend(app), test: await backend(test) };
  await new Promise((r) => setTimeout(r, TEST_POOL.idleMs + 2_000));
  expect(await backend(app)).toBe(before.app);
  expect(await backend(test)).not.toBe(before.test);
});
