// A PostgreSQL server (DATABASE_URL): one pg Pool per database. Databases are created on first use
// and migrated under advisory locks, so several processes may open the same one at once.
import pg from "pg";
import { SESSION_SETTINGS, quoteIdent, type Description, type Engine, type RawResult, type Session } from "./engine";
import { dbErrorDisplay, isPgError, napiError } from "./errors";
import type { Holder } from "./lock";
import { describeOnClient } from "./pg-describe";
import { TypeCatalog } from "./types";

/** pg type parsers that leave every value as PostgreSQL's text, like the embedded engine. */
const RAW_TEXT: pg.CustomTypesConfig = { getTypeParser: () => (v: string) => v } as pg.CustomTypesConfig;

/** The connection URL for database `name` on the server that `serverUrl` points at. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** Runs fn on a client of the server's maintenance database (the one DATABASE_URL names). */
export async function withMaintenanceClient<T>(serverUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (err) {
    throw isPgError(err) ? napiError(dbErrorDisplay(err)) : connectionFault(err, true);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** An arbitrary fixed key for the server-wide lock that serializes CREATE DATABASE. */
const CREATE_LOCK_KEY = 7_402_117_733;

/** Creates the database unless it exists; safe when several processes race to create it. */
export async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  await withMaintenanceClient(serverUrl, async (c) => {
    c.on("error", () => {}); // a lost connection also rejects the statement in flight, which reports it
    await c.query("SELECT pg_advisory_lock($1)", [CREATE_LOCK_KEY]);
    try {
      const found = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } finally {
      await c.query("SELECT pg_advisory_unlock($1)", [CREATE_LOCK_KEY]);
    }
  });
}

/** Marks errors that mean the server could not be reached or the connection was lost. */
const CONNECTION_FAULT = Symbol("connection fault");

/** Whether a statement or an open failed because the connection did, not because of the SQL. */
export function isConnectionFault(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return CONNECTION_FAULT in err || (isPgError(err) ? isFatal(err) : /^db error: (FATAL|PANIC):/.test(err.message));
}

function isFatal(err: { severity?: string }): boolean {
  return err.severity === "FATAL" || err.severity === "PANIC";
}

/**
 * A refused, failed or lost connection worded as tokio-postgres words it under Encore ("error
 * connecting to server: ...", "error communicating with the server: ...", "connection closed"), so an
 * app that recognizes a database outage does so under both runtimes.
 */
export function connectionFault(err: unknown, connecting: boolean): Error {
  if (isPgError(err)) return err;
  const e = err as NodeJS.ErrnoException;
  const message = e instanceof Error ? e.message : String(err);
  const wording = connecting
    ? `error connecting to server: ${message}`
    : e?.code === "ECONNRESET" || e?.code === "EPIPE"
      ? `error communicating with the server: ${message}`
      : "connection closed";
  return Object.assign(napiError(wording), { [CONNECTION_FAULT]: true });
}

/** Clients whose connection has died; the pool must not hand them out again. */
const lost = new WeakSet<pg.PoolClient | pg.Client>();

/** How a pool holds its connections. */
export interface PoolLimits {
  max: number;
  /** A connection unused for this long is closed. */
  idleMs: number;
  /** A connection this old is replaced once it is free; 0 never. */
  lifetimeSeconds: number;
}

/**
 * Encore's pool: bb8 0.9 with at most 30 connections (runtimes/core/src/sqldb/client.rs) and bb8's
 * Builder defaults otherwise (bb8/src/api.rs: idle connections closed after 10 minutes, any replaced
 * after 30), so a click after a quiet minute finds its connection, and its statement's plan, still there.
 */
export const ENCORE_POOL: PoolLimits = { max: 30, idleMs: 10 * 60_000, lifetimeSeconds: 30 * 60 };

/**
 * Tests' pools: a test file's databases are never closed, and the server is shared by every test file
 * of both workers, so a few connections each, closed 5 s after their last statement.
 */
export const TEST_POOL: PoolLimits = { max: 5, idleMs: 5_000, lifetimeSeconds: 0 };

/** Opens a pool on an existing database of the server. */
export function openServer(dbName: string, url: string, limits: PoolLimits): Engine {
  return new ServerEngine(dbName, url, limits);
}

/**
 * Names for prepared statements, one per SQL text: pg parses a named statement once per connection
 * and then only binds and executes it. A statement that failed gets a new name next time, so one
 * whose cached plan went stale (the schema changed) is parsed afresh.
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  private next = 0;

  nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (name === undefined) {
      name = `encore_local_${this.next++}`;
      this.names.set(sql, name);
    }
    return name;
  }

  forget(sql: string): void {
    this.names.delete(sql);
  }
}

class ServerEngine implements Engine {
  readonly types = new TypeCatalog();
  readonly described = new Map<string, Description>();
  private readonly pool: pg.Pool;
  private readonly statements = new StatementNames();

  constructor(
    readonly dbName: string,
    url: string,
    limits: PoolLimits,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: limits.max,
      idleTimeoutMillis: limits.idleMs,
      maxLifetimeSeconds: limits.lifetimeSeconds,
      options: Object.entries(SESSION_SETTINGS)
        .map(([k, v]) => `-c ${k}=${v}`)
        .join(" "),
    });
    // A connection that dies must never crash the process, whether idle (pg-pool's own listener, which
    // reports here), held, or just released and being closed: every client is listened to for life.
    this.pool.on("error", () => {});
    this.pool.on("connect", (client) => client.on("error", () => lost.add(client)));
  }

  async session(holder: Holder): Promise<Session> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw isPgError(err) ? napiError(dbErrorDisplay(err)) : connectionFault(err, true);
    }
    const statements = this.statements;
    let broken = false;
    const track = async <T>(p: Promise<T>): Promise<T> => {
      try {
        return await p;
      } catch (err) {
        if (isPgError(err) && !isFatal(err)) throw err;
        // A FATAL error or a lost socket: this connection is finished; the pool opens a new one.
        broken = true;
        throw connectionFault(err, false);
      }
    };
    return {
      holder,
      async describe(sql): Promise<Description> {
        return { paramTypes: await track(describeOnClient(client, sql)) };
      },
      async execute(sql, params): Promise<RawResult> {
        const name = statements.nameOf(sql);
        try {
          const r = await track(client.query<(string | null)[]>({ name, text: sql, values: params, rowMode: "array", types: RAW_TEXT }));
          return { fields: r.fields.map((f) => ({ name: f.name, oid: f.dataTypeID })), rows: r.rows };
        } catch (err) {
          statements.forget(sql);
          throw err;
        }
      },
      async simple(sql) {
        await track(client.query(sql));
      },
      release() {
        client.release(broken || lost.has(client));
      },
    };
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
