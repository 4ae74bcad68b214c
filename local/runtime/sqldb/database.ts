// The native SqlDatabase, Transaction and SqlConn that encore.dev/storage/sqldb calls.
import type { DatabaseModel } from "../../model/app-model";
import type { Napi } from "../../model/napi";
import { Cursor, Row, type Outcome, type QueryArgs } from "./cursor";
import type { Engine, Session } from "./engine";
import { dbErrorDisplay, napiError } from "./errors";
import { markOwner, newHolder, type Holder } from "./lock";
import { migrate } from "./migrate";
import { commandError, runStatement } from "./statement";
import { announced, announceOperation, channels, type OperationRecorder } from "../core/events";

type Source = Napi.Request | null | undefined;

/** Runs a statement as a traced DB query event of the request that issued it (Encore's DBQueryStart/End). */
function tracedStatement(source: Source, database: string, sql: string, run: () => Promise<Outcome>, txId?: number): Promise<Outcome> {
  if (!channels.query.hasSubscribers) return run();
  const fields = () => (txId === undefined ? { database, query: sql } : { database, query: sql, txId });
  return announced(channels.query, source, "db_query", fields, run, (o) =>
    "failed" in o ? { error: { code: o.failed.code, message: o.failed.message } } : { fields: { rows: o.rows.length } },
  );
}

/** How to reach a database: opened lazily, on its first statement. */
export interface EngineSpec {
  open(): Promise<Engine>;
  /**
   * Whether statements share one connection (embedded PGlite), so a transaction's own code can wait
   * on it forever: only then are owners marked for the deadlock check (lock.ts). Marking enables an
   * AsyncLocalStorage, which costs every promise of the process from then on.
   */
  oneConnection: boolean;
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

  async query(query: string, args: QueryArgs, source?: Source): Promise<Cursor> {
    const engine = await this.ready();
    return new Cursor(await tracedStatement(source, this.model.name, query, () => runAlone(engine, query, args)));
  }

  async queryRow(query: string, args: QueryArgs, source?: Source): Promise<Row | null> {
    const engine = await this.ready();
    return firstRow(await tracedStatement(source, this.model.name, query, () => runAlone(engine, query, args)));
  }

  async begin(source?: Source): Promise<Transaction> {
    const holder = newHolder("transaction");
    if (this.spec.oneConnection) markOwner(holder);
    const engine = await this.ready();
    const session = await engine.session(holder);
    const txEvent = announceOperation(channels.query, source, "db_transaction", { database: this.model.name });
    try {
      await session.simple("BEGIN");
    } catch (err) {
      session.release();
      const failure = commandError(err);
      txEvent?.finish(null, failure);
      throw failure;
    }
    return new Transaction(engine, session, this.model.name, txEvent);
  }

  async acquire(): Promise<SqlConn> {
    const holder: Holder = newHolder("connection");
    if (this.spec.oneConnection) markOwner(holder);
    const engine = await this.ready();
    return new SqlConn(engine, await engine.session(holder), this.model.name);
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
    private readonly database: string,
    /** Encore's DBTransactionStart, in the span that began it; its queries point at it. */
    private readonly traceTx: OperationRecorder | null,
  ) {
    this.session = session;
    unfinished.register(this, session, this);
  }

  async query(query: string, args: QueryArgs, source?: Source): Promise<Cursor> {
    const session = this.open();
    return new Cursor(
      await tracedStatement(source, this.database, query, () => runStatement(this.engine, session, query, args), this.traceTx?.id),
    );
  }

  commit(): Promise<void> {
    return this.traceFinish("commit", this.finish("COMMIT"));
  }

  rollback(): Promise<void> {
    return this.traceFinish("rollback", this.finish("ROLLBACK"));
  }

  /** Ends the transaction's trace event with how it completed. */
  private async traceFinish(completion: "commit" | "rollback", done: Promise<void>): Promise<void> {
    const t = this.traceTx;
    if (t === null) return done;
    try {
      await done;
      t.finish({ completion });
    } catch (err) {
      t.finish({ completion }, err);
      throw err;
    }
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
    private readonly database: string,
  ) {
    this.session = session;
  }

  async query(query: string, args: QueryArgs, source?: Source): Promise<Cursor> {
    return new Cursor(await this.run(query, args, source));
  }

  async queryRow(query: string, args: QueryArgs, source?: Source): Promise<Row | null> {
    return firstRow(await this.run(query, args, source));
  }

  private run(query: string, args: QueryArgs, source: Source): Promise<Outcome> {
    const session = this.session;
    if (session === null) return Promise.reject(napiError("connection_closed"));
    return tracedStatement(source, this.database, query, () => runStatement(this.engine, session, query, args));
  }

  async close(): Promise<void> {
    this.session?.release();
    this.session = null;
  }
}
