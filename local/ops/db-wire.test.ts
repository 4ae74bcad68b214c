// The wire server on an embedded database, with node-postgres as the client: a client's transaction
// holds PGlite's one connection (the app's statement waits for its end and never runs inside it),
// and a client that leaves takes its open transaction and its settings with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../runtime/sqldb/engine";
import { newHolder } from "../runtime/sqldb/lock";
import { openPglite } from "../runtime/sqldb/pglite-engine";
import { lastReadyStatus, serveDatabases, type WireServer } from "./db-wire";

/**
 * Serves the engine `open` makes (in `scratch`, a temp folder removed afterwards) as database "db" for
 * the block's tests; `client` connects to it (or to another name) as psql would.
 */
function serveForThisBlock(scratch: string, open: (scratch: string) => Promise<Engine>) {
  const served = { engine: null as unknown as Engine, server: null as unknown as WireServer };
  beforeAll(async () => {
    served.engine = await open(scratch);
    served.server = await serveDatabases(0, (db) => (db === "db" ? Promise.resolve(served.engine) : null));
  }, 60_000);
  afterAll(async () => {
    await served.server?.close();
    await served.engine?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  const client = async (database = "db") => {
    const c = new pg.Client({ connectionString: `postgresql://encore:local@127.0.0.1:${served.server.port}/${database}?sslmode=disable` });
    await c.connect();
    return c;
  };
  return { served, client };
}

describe("wire server", () => {
  const { served, client } = serveForThisBlock(fs.mkdtempSync(path.join(os.tmpdir(), "wire-template-")), async (template) => {
    const engine = await openPglite("db", { memory: true, templateDir: template });
    const s = await engine.session(newHolder("statement"));
    await s.execute("CREATE TABLE t (n int)", []).finally(() => s.release());
    return engine;
  });

  /** A statement as the app runs it: a session of its own, taken in turn. */
  async function appQuery(sql: string): Promise<(string | null)[][]> {
    const s = await served.engine.session(newHolder("statement"));
    try {
      return (await s.execute(sql, [])).rows;
    } finally {
      s.release();
    }
  }

  it("refuses a database it does not serve, as PostgreSQL does", async () => {
    await expect(client("nope")).rejects.toThrow('database "nope" does not exist');
  });

  it("answers queries, with parameters (the extended protocol) too", async () => {
    const c = await client();
    try {
      expect((await c.query("SELECT 1 + 1 AS two")).rows).toEqual([{ two: 2 }]);
      expect((await c.query("SELECT $1::int * 3 AS n", [7])).rows).toEqual([{ n: 21 }]);
      await expect(c.query("SELEC 1")).rejects.toThrow('syntax error at or near "SELEC"');
      expect((await c.query("SELECT 'still here' AS s")).rows).toEqual([{ s: "still here" }]);
    } finally {
      await c.end();
    }
  });

  it("makes the app's statement wait for a client's transaction, never run inside it", async () => {
    const c = await client();
    try {
      await c.query("BEGIN");
      await c.query("INSERT INTO t VALUES (1)");
      let seen: (string | null)[][] | null = null;
      const app = appQuery("SELECT count(*) FROM t").then((rows) => (seen = rows));
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toBeNull();
      await c.query("ROLLBACK");
      await app;
      expect(seen).toEqual([["0"]]);
    } finally {
      await c.end();
    }
  });

  it("rolls back what a client left open and puts back the app's settings when it leaves", async () => {
    const c = await client();
    await c.query("SET TimeZone TO 'America/New_York'");
    await c.query("BEGIN");
    await c.query("INSERT INTO t VALUES (2)");
    c.on("error", () => {}); // the client's own socket, cut here on purpose
    c.connection.stream.destroy();
    expect(await appQuery("SELECT count(*) FROM t")).toEqual([["0"]]);
    expect(await appQuery("SHOW TimeZone")).toEqual([["UTC"]]);
  });

  it("reads the status of the last ReadyForQuery in an answer", () => {
    const z = (s: string) => Buffer.from([0x5a, 0, 0, 0, 5, s.charCodeAt(0)]);
    const other = Buffer.from([0x43, 0, 0, 0, 4]);
    expect(lastReadyStatus(Buffer.concat([other, z("T"), other, z("I")]))).toBe("I");
    expect(lastReadyStatus(Buffer.concat([z("I"), other, z("T")]))).toBe("T");
    expect(lastReadyStatus(other)).toBeNull();
  });
});

describe("wire server on a database closed while idle", () => {
  const IDLE_MS = 200;
  const { client } = serveForThisBlock(fs.mkdtempSync(path.join(os.tmpdir(), "wire-idle-")), (dir) =>
    openPglite("db", { dir, closeWhenIdleMs: IDLE_MS }),
  );

  it("keeps it open while a client is connected, with the client's settings, and answers after it closed", async () => {
    const startedAt = async (c: pg.Client) => (await c.query("SELECT pg_postmaster_start_time()::text AS t")).rows[0].t as string;
    const c = await client();
    const before = await startedAt(c);
    await c.query("SET search_path TO pg_catalog, public");
    await new Promise((r) => setTimeout(r, IDLE_MS * 5));
    expect(await startedAt(c)).toBe(before);
    expect((await c.query("SHOW search_path")).rows).toEqual([{ search_path: "pg_catalog, public" }]);
    await c.end();
    await new Promise((r) => setTimeout(r, IDLE_MS * 5));
    const again = await client();
    try {
      expect(await startedAt(again)).not.toBe(before);
    } finally {
      await again.end();
    }
  });
});
