// Applies a database's migrations exactly as `encore run` tracks them (cli/daemon/sqldb/migrate.go,
// db.go: golang-migrate's postgres driver plus Encore's metadata source):
//  - schema_migrations(version bigint not null primary key, dirty boolean not null) in the current
//    schema, holding one row: the last applied version;
//  - everything under pg_advisory_lock(id), with golang-migrate's id for (database, schema, table),
//    so two processes (or this and golang-migrate itself) never migrate one database at once;
//  - per migration: mark (N, dirty) in its own transaction, run the file together with Encore's
//    appended "insert ... (N, false) ON CONFLICT ... dirty = false" as one simple query (one implicit
//    transaction), then record (N, clean);
//  - migrations numbered above the recorded version run in order; others are skipped.
// A dirty database (a migration failed part-way) is refused with instructions. Encore's daemon
// instead forces the previous version and retries, relying on migrations being transactional.
import fs from "node:fs";
import path from "node:path";
import { crc32 } from "node:zlib";
import type { DatabaseModel } from "../../model/app-model";
import { quoteIdent, type Engine, type Session } from "./engine";
import { isPgError } from "./errors";
import { newHolder } from "./lock";

const TABLE = "schema_migrations";

/** golang-migrate's GenerateAdvisoryLockId(database, schema, table). */
export function advisoryLockId(database: string, schema: string, table = TABLE): string {
  const sum = crc32(Buffer.from([schema, table, database].join("\0"), "utf8"));
  return ((BigInt(sum) * 1486364155n) % 2n ** 32n).toString();
}

/** Applies the database's pending migrations and returns their numbers (none when all are applied). */
export async function migrate(engine: Engine, db: DatabaseModel): Promise<number[]> {
  if (db.migrationsDir === null || db.migrations.length === 0) return [];
  const session = await engine.session(newHolder("connection"));
  try {
    const [[database, schema]] = (await session.execute("SELECT current_database()::text, current_schema()::text", [])).rows;
    const lockId = advisoryLockId(database!, schema!);
    await session.execute("SELECT pg_advisory_lock($1::bigint)", [lockId]);
    try {
      return await applyPending(session, db, `${quoteIdent(schema!)}.${quoteIdent(TABLE)}`);
    } finally {
      await session.execute("SELECT pg_advisory_unlock($1::bigint)", [lockId]);
    }
  } finally {
    session.release();
  }
}

async function applyPending(session: Session, db: DatabaseModel, table: string): Promise<number[]> {
  await session.simple(`CREATE TABLE IF NOT EXISTS ${table} (version bigint not null primary key, dirty boolean not null)`);
  const [row] = (await session.execute(`SELECT version::text, dirty::text FROM ${table} LIMIT 1`, [])).rows;
  const version = row ? Number(row[0]) : -1;
  if (row && row[1] === "true") {
    const file = db.migrations.find((m) => m.number === version)?.file ?? `version ${version}`;
    throw new Error(
      `could not migrate database ${db.name}: it is dirty at version ${version} (migration ${file} failed part-way). ` +
        `Fix the migration and the schema by hand, then record the last good version in ${TABLE} ` +
        `(for a local embedded database, npm run reset also works: it deletes all local data).`,
    );
  }
  if (version >= 0 && !db.migrations.some((m) => m.number === version)) {
    throw new Error(
      `could not migrate database ${db.name}: it is at version ${version}, but no migration file has that number in ${db.migrationsDir}`,
    );
  }
  const pending = db.migrations.filter((x) => x.number > version);
  for (const m of pending) {
    const sql = fs.readFileSync(path.join(db.migrationsDir!, m.file), "utf8");
    await setVersion(session, table, m.number, true);
    try {
      await session.simple(
        `${sql};\ninsert into ${TABLE} (version, dirty) values (${m.number}, false) ON CONFLICT (version) DO UPDATE SET dirty = false;`,
      );
    } catch (err) {
      throw new Error(`could not migrate database ${db.name}: migration ${m.file} failed: ${describeFailure(err, sql)}`, {
        cause: err,
      });
    }
    await setVersion(session, table, m.number, false);
  }
  return pending.map((m) => m.number);
}

/** golang-migrate's SetVersion: the table holds exactly one row. */
async function setVersion(session: Session, table: string, version: number, dirty: boolean): Promise<void> {
  await session.simple(`BEGIN; TRUNCATE ${table}; INSERT INTO ${table} (version, dirty) VALUES (${version}, ${dirty}); COMMIT;`);
}

/** The server's message with the line and column it points at, as golang-migrate reports it. */
function describeFailure(err: unknown, sql: string): string {
  if (!isPgError(err)) return (err as Error).message;
  let msg = err.message;
  const pos = Number(err.position);
  if (pos > 0 && pos <= sql.length + 1) {
    const before = [...sql.replace(/\r\n/g, "\n")].slice(0, pos - 1).join("");
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    msg += ` (line ${line}, column ${column})`;
  }
  if (err.detail) msg += `, ${err.detail}`;
  return msg;
}
