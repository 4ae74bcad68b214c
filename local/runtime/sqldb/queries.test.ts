// Statements, transactions, connections and errors, on both engines.
import { expect, it } from "vitest";
import crypto from "node:crypto";
import { tracer } from "../../devtools/trace";
import type { Napi } from "../../model/napi";
import { Request } from "../core/request";
import { QueryArgs } from "./cursor";
import { detachedFromTransactions, markedOwner } from "./lock";
import { rejection, row, rows, describeOnEngines } from "./testkit";

const SCHEMA = `
CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL);
INSERT INTO counter VALUES (1, 0);
CREATE TABLE item (id int PRIMARY KEY, name text NOT NULL UNIQUE);`;

describeOnEngines("queries", SCHEMA, (t) => {
  it("commits a transaction's writes and discards a rolled-back one's", async () => {
    const tx = await t.db.begin();
    await rows(tx, "INSERT INTO item VALUES ($1, $2)", 1, "kept");
    expect(await row(tx, "SELECT name FROM item WHERE id = $1", 1)).toEqual({ name: "kept" });
    await tx.commit();
    const tx2 = await t.db.begin();
    await rows(tx2, "INSERT INTO item VALUES ($1, $2)", 2, "dropped");
    await tx2.rollback();
    expect(await rows(t.db, "SELECT id, name FROM item ORDER BY id")).toEqual([{ id: 1, name: "kept" }]);
    await expect(tx.commit()).rejects.toThrow("transaction closed");
    await expect(tx.query("SELECT 1", new QueryArgs([]))).rejects.toThrow("transaction closed");
  });

  it("traces a transaction as Encore's DBTransactionStart and End, with its queries pointing at it", async () => {
    const ids = { traceId: `tx${crypto.randomUUID()}`, spanId: `span${crypto.randomUUID()}` };
    const span = tracer.start(ids, { kind: "request", service: "svc", endpoint: "ep" })!;
    const source = new Request({ payload: null, meta: { trace: ids } as Napi.RequestMeta });
    const tx = await t.db.begin(source);
    await (await tx.query("INSERT INTO item VALUES ($1, $2)", new QueryArgs([7, "traced"]), source)).next();
    await tx.rollback();
    span.end({});

    const events = tracer.get(ids.traceId)!.spans[0].events;
    const txEvent = events.find((e) => e.kind === "db_transaction")!;
    expect(txEvent.fields).toMatchObject({ database: t.db.model.name, completion: "rollback" });
    expect(events.filter((e) => e.kind === "db_query" && e.fields.txId === txEvent.id).map((e) => e.fields.query)).toEqual([
      "INSERT INTO item VALUES ($1, $2)",
    ]);
  });

  it("commits a failed transaction as a rollback, without an error, as PostgreSQL does", async () => {
    const tx = await t.db.begin();
    await rows(tx, "INSERT INTO item VALUES ($1, $2)", 3, "lost");
    const cursor = await tx.query("INSERT INTO item VALUES ($1, $2)", new QueryArgs([1, "duplicate"]));
    await expect(cursor.next()).rejects.toThrow("duplicate key value");
    await tx.commit();
    expect(await row(t.db, "SELECT count(*) AS n FROM item WHERE id = 3")).toEqual({ n: 0 });
  });

  it("reports a statement that fails to prepare on query(), worded as Encore's Display", async () => {
    const err = await rejection(t.db.query("SELEC 1", new QueryArgs([])));
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toBe('db error: ERROR: syntax error at or near "SELEC"');
    expect(err.code).toBe("GenericFailure");
    await expect(t.db.query("SELECT * FROM nowhere", new QueryArgs([]))).rejects.toThrow(
      'db error: ERROR: relation "nowhere" does not exist',
    );
  });

  it("reports a statement that fails while running on next(), worded as Encore's Debug form", async () => {
    const cursor = await t.db.query("INSERT INTO item VALUES ($1, $2)", new QueryArgs([1, "again"]));
    const err = await rejection(cursor.next());
    expect(err.message).toMatch(/^Error \{\n {4}kind: Db,\n {4}cause: Some\(\n {8}DbError \{\n {12}severity: "ERROR",/);
    expect(err.message).toContain("code: SqlState(\n                E23505,\n            ),");
    expect(err.message).toContain('message: "duplicate key value violates unique constraint \\"item_pkey\\"",');
    expect(err.message).toContain('"Key (id)=(1) already exists."');
    expect(await cursor.next()).toBeNull();
  });

  it("reports a failed queryRow in Display form", async () => {
    await expect(t.db.queryRow("SELECT 1 / $1 AS x", new QueryArgs([0]))).rejects.toThrow(/^db error: ERROR: division by zero$/);
    const r = await t.db.queryRow("SELECT $1::int4 + 1 AS x", new QueryArgs([41]));
    expect(r?.values()).toEqual({ x: 42 });
    expect(await t.db.queryRow("SELECT 1 WHERE false", new QueryArgs([]))).toBeNull();
  });

  it("runs statements on an acquired connection until it is closed", async () => {
    const conn = await t.db.acquire();
    await rows(conn, "CREATE TEMP TABLE scratch (x int)");
    await rows(conn, "INSERT INTO scratch VALUES ($1)", 5);
    expect((await conn.queryRow("SELECT x FROM scratch", new QueryArgs([])))?.values()).toEqual({ x: 5 });
    await conn.close();
    await expect(conn.query("SELECT 1", new QueryArgs([]))).rejects.toThrow("connection_closed");
  });

  it("applies 200 concurrent increments exactly once each", async () => {
    await rows(t.db, "UPDATE counter SET n = 0 WHERE id = 1");
    await Promise.all(Array.from({ length: 200 }, () => rows(t.db, "UPDATE counter SET n = n + $1 WHERE id = 1", 1)));
    expect(await row(t.db, "SELECT n FROM counter WHERE id = 1")).toEqual({ n: 200 });
  });

  it("keeps concurrent transactions apart", async () => {
    await rows(t.db, "UPDATE counter SET n = 0 WHERE id = 1");
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const tx = await t.db.begin();
        const { n } = (await row(tx, "SELECT n FROM counter WHERE id = 1 FOR UPDATE")) as { n: number };
        await rows(tx, "UPDATE counter SET n = $1 WHERE id = 1", n + 1);
        await tx.commit();
      }),
    );
    expect(await row(t.db, "SELECT n FROM counter WHERE id = 1")).toEqual({ n: 20 });
  });

  it("marks a transaction's owner only on one connection, where its own code could wait on it: a mark costs every later promise", async () => {
    // In a context of its own: an earlier test's mark would otherwise still be seen here.
    const marked = await detachedFromTransactions(async () => {
      const tx = await t.db.begin();
      const owner = markedOwner();
      await tx.rollback();
      return owner;
    });
    expect(marked?.kind).toBe(t.engine.name === "pglite" ? "transaction" : undefined);
  });

  if (t.engine.name === "pglite") {
    it("fails, instead of hanging, a statement outside the transaction from the code holding it", async () => {
      const tx = await t.db.begin();
      await rows(tx, "UPDATE counter SET n = 7 WHERE id = 1");
      const err = await rejection(t.db.query("SELECT n FROM counter", new QueryArgs([])));
      expect(err.message).toContain("single connection");
      expect(err.message).toContain("run the statement on the transaction");
      await tx.rollback();
      expect(await row(t.db, "SELECT n FROM counter WHERE id = 1")).not.toEqual({ n: 7 });
    });

    it("fails, instead of hanging, a transaction begun inside another", async () => {
      const outer = await t.db.begin();
      expect((await rejection(t.db.begin())).message).toContain("single connection");
      await outer.rollback();
      const after = await t.db.begin();
      await after.commit();
    });

    it("lets a statement from elsewhere wait for an open transaction to finish", async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      // Started before begin(), so its async context is not the transaction owner's.
      const elsewhere = (async () => {
        await gate;
        return row(t.db, "SELECT n FROM counter WHERE id = 1");
      })();
      const tx = await t.db.begin();
      await rows(tx, "UPDATE counter SET n = 99 WHERE id = 1");
      open();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await tx.commit();
      expect(await elsewhere).toEqual({ n: 99 });
    });

    it("lets an independent flow started from the owner's context wait (a request or a delivery)", async () => {
      const tx = await t.db.begin();
      await rows(tx, "UPDATE counter SET n = 42 WHERE id = 1");
      // Scheduled from the transaction owner's context, as a publish inside a handler schedules a delivery.
      const delivery = detachedFromTransactions(
        () => new Promise((resolve) => setImmediate(() => resolve(row(t.db, "SELECT n FROM counter WHERE id = 1")))),
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await tx.commit();
      expect(await delivery).toEqual({ n: 42 });
    });
  }
});
