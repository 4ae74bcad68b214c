// The native SqlDatabase, Transaction and SqlConn that encore.dev/storage/sqldb calls.
import type { DatabaseModel } from "../../appmodel/model";
import type { Napi } from "../napi-types";
import { Cursor, Row, type Outcome, type QueryArgs } from "./cursor";
import type { Engine, Session } from "./engine";
import { dbErrorDisplay, napiError } from "./errors";
import { markOwner, newHolder, type Holder } from "./lock";
import { migrate } from "./migrate";
import { commandError, runStatement } from "./statement";

/** How to reach a database: opened lazily, on its first statement. */
export interface EngineSpec {
  open(): Promise<Engine>;
  /** The connection string the SDK's `connectionString` reports; throws where there is none. */
  connString(): string;
}

/** Runs one statement on a session of its own. */
async function runAlone(engine: Engine, sql: string, args: QueryArgs): Promise<Outcome> {
  const session = await engine.session(newHolder("statement"));
  try {
    return await runStatement(engine, session, sql, args);
  } finally {
    session.release();
  }
}

/** queryRow as Encore's napi layer does it: execution errors in Display form, then the first row or null. */
function firstRow(outcome: Outcome): Row | null {
  if ("failed" in outcome) throw napiError(dbErrorDisplay(outcome.failed));
  return outcome.rows.length > 0 ? new Row(outcome.columns, outcome.rows[0]) : null;
}

/** One Encore database; opened and migrated on first use. */
export class SqlDatabase implements Napi.SqlDatabase {
  private engine: Promise<Engine> | null = null;

  constructor(
    readonly model: DatabaseModel,
    private readonly spec: EngineSpec,
  ) {}

  /**
   * The opened, migrated engine (what `encore run` prepares before serving). A failure (the server
   * is down) is not kept: the next statement tries again, so the database recovers by itself.
   */
  ready(): Promise<Engine> {
    if (this.engine) return this.engine;
    const opening = (async () => {
      const engine = await this.spec.open();
      try {
        await migrate(engine, this.model);
      } catch (err) {
        await engine.close().catch(() => {});
        throw err;
      }
      return engine;
    })();
    this.engine = opening;
    opening.catch(() => {
      if (this.engine === opening) this.engine = null;
    });
    return opening;
  }

  connString(): string {
    return this.spec.connString();
  }

  async query(query: string, args: QueryArgs): Promise<Cursor> {
    return new Cursor(await runAlone(await this.ready(), query, args));
  }

  async queryRow(query: string, args: QueryArgs): Promise<Row | null> {
    return firstRow(await runAlone(await this.ready(), query, args));
  }

  async begin(): Promise<Transaction> {
    const holder = newHolder("transaction");
    markOwner(holder);
    const engine = await this.ready();
    const session = await engine.session(holder);
    try {
      await session.simple("BEGIN");
    } catch (err) {
      session.release();
      throw commandError(err);
    }
    return new Transaction(engine, session);
  }

  async acquire(): Promise<SqlConn> {
    const holder: Holder = newHolder("connection");
    markOwner(holder);
    const engine = await this.ready();
    return new SqlConn(engine, await engine.session(holder));
  }

  /** Closes the engine (pool or embedded instance) if it was opened. */
  async close(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    if (engine) await (await engine.catch(() => null))?.close();
  }
}

/** Encore rolls back a transaction whose object is dropped unfinished; so do we, when it is collected. */
const unfinished = new FinalizationRegistry<Session>((session) => {
  console.warn("transaction not completed, forcing rollback");
  session
    .simple("ROLLBACK")
    .catch(() => {})
    .finally(() => session.release());
});

export class Transaction implements Napi.Transaction {
  private session: Session | null;

  constructor(
    private readonly engine: Engine,
    session: Session,
  ) {
    this.session = session;
    unfinished.register(this, session, this);
  }

  async query(query: string, args: QueryArgs): Promise<Cursor> {
    const session = this.open();
    return new Cursor(await runStatement(this.engine, session, query, args));
  }

  commit(): Promise<void> {
    return this.finish("COMMIT");
  }

  rollback(): Promise<void> {
    return this.finish("ROLLBACK");
  }

  private open(): Session {
    if (this.session === null) throw napiError("transaction closed");
    return this.session;
  }

  private async finish(command: "COMMIT" | "ROLLBACK"): Promise<void> {
    const session = this.open();
    this.session = null;
    unfinished.unregister(this);
    try {
      await session.simple(command);
    } catch (err) {
      throw commandError(err);
    } finally {
      session.release();
    }
  }
}

/** A connection taken from the pool (or the embedded database's single connection) until close(). */
export class SqlConn implements Napi.SqlConn {
  private session: Session | null;

  constructor(
    private readonly engine: Engine,
    session: Session,
  ) {
    this.session = session;
  }

  async query(query: string, args: QueryArgs): Promise<Cursor> {
    return new Cursor(await this.run(query, args));
  }

  async queryRow(query: string, args: QueryArgs): Promise<Row | null> {
    return firstRow(await this.run(query, args));
  }

  private run(query: string, args: QueryArgs): Promise<Outcome> {
    if (this.session === null) return Promise.reject(napiError("connection_closed"));
    return runStatement(this.engine, this.session, query, args);
  }

  async close(): Promise<void> {
    this.session?.release();
    this.session = null;
  }
}
