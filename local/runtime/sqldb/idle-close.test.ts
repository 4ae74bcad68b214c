// An embedded database that `npm start` closes while idle: the next statement opens it again, first
// statements that come together open it once, and a transaction or acquired connection is never cut.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testScratchDir } from "../core/context";
import { QueryArgs } from "./cursor";
import { SqlDatabase } from "./database";
import { openPglite } from "./pglite-engine";
import { row, rows, tempDatabase } from "./testkit";

/** Idle time before the instance closes; the waits below are several of it. */
const IDLE_MS = 200;
const idleFor = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** When the running instance started: a new value after each reopening. */
const startedAt = async (db: Pick<SqlDatabase, "query">) => (await row(db, "SELECT pg_postmaster_start_time()::text AS t")).t as string;

describe("an embedded database closed while idle", () => {
  let db: SqlDatabase;

  beforeAll(() => {
    const model = tempDatabase({ "1_schema.up.sql": "CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL);" });
    const dir = fs.mkdtempSync(path.join(testScratchDir(), "idle-db-"));
    db = new SqlDatabase(model, {
      open: () => openPglite(model.name, { dir, closeWhenIdleMs: IDLE_MS }),
      connString: () => "",
      oneConnection: true,
    });
  });
  afterAll(() => db.close());

  it("answers the next statement with its data, from a reopened instance", async () => {
    await rows(db, "INSERT INTO item VALUES ($1, $2)", 1, "kept");
    const before = await startedAt(db);
    await idleFor(IDLE_MS * 5);
    expect(await rows(db, "SELECT id, name FROM item ORDER BY id")).toEqual([{ id: 1, name: "kept" }]);
    expect(await startedAt(db)).not.toBe(before);
  });

  it("opens it once for first statements that come together", async () => {
    const before = await startedAt(db);
    await idleFor(IDLE_MS * 5);
    const starts = await Promise.all(Array.from({ length: 6 }, () => startedAt(db)));
    expect(new Set(starts).size).toBe(1);
    expect(starts[0]).not.toBe(before);
  });

  it("never closes under an open transaction, however long it idles", async () => {
    const tx = await db.begin();
    const before = await startedAt(tx);
    await rows(tx, "INSERT INTO item VALUES ($1, $2)", 2, "in the transaction");
    await idleFor(IDLE_MS * 5);
    expect(await startedAt(tx)).toBe(before);
    expect(await rows(tx, "SELECT name FROM item WHERE id = $1", 2)).toEqual([{ name: "in the transaction" }]);
    await tx.commit();
    expect(await row(db, "SELECT name FROM item WHERE id = $1", 2)).toEqual({ name: "in the transaction" });
  });

  it("never closes under an acquired connection, whose settings stay", async () => {
    const conn = await db.acquire();
    try {
      await conn.query("SET search_path TO pg_catalog, public", new QueryArgs([]));
      const before = await startedAt(conn);
      await idleFor(IDLE_MS * 5);
      expect(await startedAt(conn)).toBe(before);
      expect(await row(conn, "SHOW search_path")).toEqual({ search_path: "pg_catalog, public" });
    } finally {
      await conn.close();
    }
  });
});
