// The database explorer: each database's tables, a table's rows a page at a time, and a SQL box.
// Everything runs in a READ ONLY transaction that is rolled back, with a statement timeout, one
// statement per request (the extended protocol refuses more) and at most ROW_CAP rows fetched
// through a cursor, so nothing typed here can change data or hold the database for long.
// Values come back as PostgreSQL's text, whatever their type.
import { openDatabase } from "../../runtime/sqldb";
import { quoteIdent, type RawResult, type Session } from "../../runtime/sqldb/engine";
import { newHolder } from "../../runtime/sqldb/lock";

/** Most rows a query answers; more are cut and marked. */
export const ROW_CAP = 500;
/** statement_timeout of every statement the explorer runs. */
export const STATEMENT_TIMEOUT_MS = 5000;
/** A table page's largest size. */
export const PAGE_MAX = 200;

export interface QueryResult {
  columns: { name: string; oid: number }[];
  rows: (string | null)[][];
  /** More rows than ROW_CAP (or the page) matched. */
  truncated: boolean;
  durationMs: number;
}

/** Runs fn on a session of its own inside a read-only transaction that is always rolled back. */
async function readOnly<T>(database: string, fn: (s: Session) => Promise<T>): Promise<T> {
  const engine = await openDatabase(database).ready();
  const session = await engine.session(newHolder("connection"));
  try {
    // The SELECT takes the transaction's snapshot, after which it can no longer be made read-write.
    await session.simple(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}; SELECT 1`);
    try {
      return await fn(session);
    } finally {
      await session.simple("ROLLBACK").catch(() => {});
    }
  } finally {
    session.release();
  }
}

export interface TableInfo {
  name: string;
  /** PostgreSQL's estimate (pg_class.reltuples; -1 before the first ANALYZE). */
  estimatedRows: number;
}

/** The tables of the database's public schema. */
export async function listTables(database: string): Promise<TableInfo[]> {
  const r = await readOnly(database, (s) =>
    s.execute(
      `SELECT c.relname, c.reltuples::bigint FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
      [],
    ),
  );
  return r.rows.map(([name, est]) => ({ name: name!, estimatedRows: Number(est) }));
}

/** A page of a table's rows in primary-key order, with the table's exact row count. */
export async function tableRows(database: string, table: string, offset: number, limit: number): Promise<QueryResult & { total: number }> {
  const started = performance.now();
  return readOnly(database, async (s) => {
    const found = await s.execute(
      `SELECT c.oid::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname = $1`,
      [table],
    );
    if (found.rows.length === 0) throw new NotFound(`database ${database} has no table ${table}`);
    const key = await s.execute(
      `SELECT a.attname FROM pg_index i JOIN LATERAL unnest(i.indkey) WITH ORDINALITY k(attnum, ord) ON true
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
       WHERE i.indrelid = $1::oid AND i.indisprimary ORDER BY k.ord`,
      [found.rows[0][0]],
    );
    const order = key.rows.length ? ` ORDER BY ${key.rows.map(([c]) => quoteIdent(c!)).join(", ")}` : "";
    const name = `public.${quoteIdent(table)}`;
    const page = await s.execute(`SELECT * FROM ${name}${order} LIMIT $1 OFFSET $2`, [String(limit + 1), String(offset)]);
    const total = await s.execute(`SELECT count(*) FROM ${name}`, []);
    return {
      columns: page.fields,
      rows: page.rows.slice(0, limit),
      truncated: page.rows.length > limit,
      total: Number(total.rows[0][0]),
      durationMs: performance.now() - started,
    };
  });
}

/** A table the database does not have. */
export class NotFound extends Error {}

/** Syntax error: DECLARE takes only a query, so a statement such as EXPLAIN or SHOW is run as it is. */
const SYNTAX_ERROR = "42601";

/** Runs one read-only statement: a query through a cursor (ROW_CAP rows fetched), anything else as it is. */
export async function runQuery(database: string, sql: string): Promise<QueryResult> {
  const started = performance.now();
  const done = (r: RawResult): QueryResult => ({
    columns: r.fields,
    rows: r.rows.slice(0, ROW_CAP),
    truncated: r.rows.length > ROW_CAP,
    durationMs: performance.now() - started,
  });
  try {
    return await readOnly(database, async (s) => {
      await s.execute(`DECLARE dashboard_query NO SCROLL CURSOR FOR ${sql}`, []);
      return done(await s.execute(`FETCH ${ROW_CAP + 1} FROM dashboard_query`, []));
    });
  } catch (err) {
    if ((err as { code?: string }).code !== SYNTAX_ERROR) throw err;
  }
  return readOnly(database, async (s) => done(await s.execute(sql, [])));
}
