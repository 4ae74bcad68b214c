// `npm run migrate` for self-hosting: Encore's Docker images do not migrate (only the CLI's daemon
// applies migrations, in cli/daemon/sqldb/migrate.go; the runtime in the image has no migrator), so
// this applies every declared database's migrations on a PostgreSQL server, tracked in
// schema_migrations exactly as `encore run` tracks them. Safe to run twice, and while an older
// version serves: each database migrates under golang-migrate's advisory lock.
import type { AppModel, DatabaseModel } from "../model/app-model";
import { appModel } from "../runtime/core/context";
import { migrate } from "../runtime/sqldb/migrate";
import { ENCORE_POOL, databaseUrl, ensureDatabase, openServer } from "../runtime/sqldb/server-engine";

/** What migrating did to one database. */
export interface MigrationReport {
  /** The Encore database name. */
  database: string;
  /** Migration numbers applied now; empty when it was up to date. */
  applied: number[];
}

/** One database to migrate: the model, the server (its maintenance database's URL) and the name there. */
export interface MigrationTarget {
  database: DatabaseModel;
  serverUrl: string;
  name: string;
}

/** Every declared database on one server, under its Encore name (what DATABASE_URL means). */
export function targetsOnServer(serverUrl: string, model: AppModel = appModel()): MigrationTarget[] {
  return model.databases.map((database) => ({ database, serverUrl, name: database.name }));
}

/** Creates each missing database and applies its migrations, one database at a time. */
export async function migrateTargets(targets: MigrationTarget[]): Promise<MigrationReport[]> {
  const reports: MigrationReport[] = [];
  for (const t of targets) {
    await ensureDatabase(t.serverUrl, t.name);
    // One connection, closed once its migrations are applied.
    const engine = openServer(t.name, databaseUrl(t.serverUrl, t.name), { ...ENCORE_POOL, max: 1 });
    try {
      reports.push({ database: t.database.name, applied: await migrate(engine, t.database) });
    } finally {
      await engine.close();
    }
  }
  return reports;
}

/** Applies every database's migrations to `<serverUrl>/<database name>`, creating missing databases. */
export function migrateAll(serverUrl: string, model: AppModel = appModel()): Promise<MigrationReport[]> {
  return migrateTargets(targetsOnServer(serverUrl, model));
}
