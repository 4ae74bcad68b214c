// A PostgreSQL server (DATABASE_URL): one pg Pool per database. Databases are created on first use
// and migrated under advisory locks, so several processes may open the same one at once.
import pg from "pg";
import { SESSION_SETTINGS, quoteIdent, type Description, type Engine, type RawResult, type Session } from "./engine";
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
  await client.connect();
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
    await c.query("SELECT pg_advisory_lock($1)", [CREATE_LOCK_KEY]);
    try {
      const found = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
    } finally {
      await c.query("SELECT pg_advisory_unlock($1)", [CREATE_LOCK_KEY]);
    }
  });
}

/** Opens a pool on an existing database of the server. */
export function openServer(dbName: string, url: string, maxConnections: number): Engine {
  return new ServerEngine(dbName, url, maxConnections);
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
    max: number,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max,
      idleTimeoutMillis: 5_000,
      options: Object.entries(SESSION_SETTINGS).map(([k, v]) => `-c ${k}=${v}`).join(" "),
    });
    // An idle client whose server connection dies (e.g. the test database was dropped) must not crash the process.
    this.pool.on("error", () => {});
  }

  async session(holder: Holder): Promise<Session> {
    const client = await this.pool.connect();
    const statements = this.statements;
    let broken = false;
    const track = async <T>(p: Promise<T>): Promise<T> => {
      try {
        return await p;
      } catch (err) {
        if (!(err instanceof Error && "severity" in err)) broken = true;
        throw err;
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
        client.release(broken);
      },
    };
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
