// `npm run migrate` for self-hosting: Encore's Docker images do not migrate (ENCORE.md §6, §16), so
// this applies every declared database's migrations on a PostgreSQL server, tracked in
// schema_migrations exactly as `encore run` tracks them. Safe to run twice, and while an older
// version serves: each database migrates under golang-migrate's advisory lock.
import type { AppModel } from "./appmodel/model";
import { appModel } from "./native/context";
import { migrate } from "./native/sqldb/migrate";
import { databaseUrl, ensureDatabase, openServer } from "./native/sqldb/server-engine";

/** What migrateAll did to one database. */
export interface MigrationReport {
  database: string;
  /** Migration numbers applied now; empty when it was up to date. */
  applied: number[];
}

/** Applies every database's migrations to `<serverUrl>/<database name>`, creating missing databases. */
export async function migrateAll(serverUrl: string, model: AppModel = appModel()): Promise<MigrationReport[]> {
  const reports: MigrationReport[] = [];
  for (const db of model.databases) {
    await ensureDatabase(serverUrl, db.name);
    const engine = openServer(db.name, databaseUrl(serverUrl, db.name), 1);
    try {
      reports.push({ database: db.name, applied: await migrate(engine, db) });
    } finally {
      await engine.close();
    }
  }
  return reports;
}
