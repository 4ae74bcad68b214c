// The dashboard's views of the app's infrastructure: database migration status, the object
// browser, cron jobs (with "run now"), and Pub/Sub queues.
import type { AppModel } from "../../model/app-model";
import { openDatabase, QueryArgs } from "../../runtime/sqldb";
import { openBucket, TypedObjectError } from "../../runtime/objects";
import { pubsubStats } from "../../runtime/pubsub";
import { runCronJob } from "../../runtime/cron";
import { tracer } from "../trace";
import { traceError } from "../trace/tracer";

export interface MigrationStatus {
  database: string;
  service: string;
  /** The version recorded in schema_migrations (-1: none applied), and whether it is dirty. */
  version: number;
  dirty: boolean;
  migrations: { number: number; description: string; file: string; applied: boolean }[];
  error?: string;
}

/** Each database's applied version against its migration files, read from schema_migrations. */
export async function migrationStatus(model: AppModel): Promise<MigrationStatus[]> {
  return Promise.all(
    model.databases.map(async (db): Promise<MigrationStatus> => {
      const base = { database: db.name, service: db.service };
      const list = (version: number) => db.migrations.map((m) => ({ ...m, applied: m.number <= version }));
      if (db.migrations.length === 0) return { ...base, version: -1, dirty: false, migrations: [] };
      try {
        const row = await openDatabase(db.name).queryRow("SELECT version, dirty FROM schema_migrations LIMIT 1", new QueryArgs([]));
        const v = row?.values() as { version: number | bigint; dirty: boolean } | undefined;
        const version = v ? Number(v.version) : -1;
        return { ...base, version, dirty: v?.dirty ?? false, migrations: list(version) };
      } catch (e) {
        return { ...base, version: -1, dirty: false, migrations: list(-1), error: (e as Error).message };
      }
    }),
  );
}

export interface ObjectEntry {
  name: string;
  size: number;
  etag: string;
  contentType?: string;
}

/** The objects of one bucket, first `limit` by name, with their content types. */
export async function listObjects(bucket: string, prefix: string, limit: number): Promise<ObjectEntry[]> {
  const b = openBucket(bucket);
  const iter = await b.list({ prefix, limit });
  if (iter instanceof TypedObjectError) throw new Error(iter.message);
  const out: ObjectEntry[] = [];
  for (let e = await iter.next(); e !== null; e = await iter.next()) out.push({ name: e.name, size: e.size, etag: e.etag });
  await Promise.all(
    out.map(async (o) => {
      const attrs = await b.object(o.name).attrs();
      if (!(attrs instanceof TypedObjectError)) o.contentType = attrs.contentType;
    }),
  );
  return out;
}

/** An object's content and type, or null when it does not exist. */
export async function readObject(bucket: string, key: string): Promise<{ data: Buffer; contentType: string } | null> {
  const obj = openBucket(bucket).object(key);
  const attrs = await obj.attrs();
  if (attrs instanceof TypedObjectError) return null;
  const data = await obj.downloadAll();
  if (data instanceof TypedObjectError) return null;
  return { data, contentType: attrs.contentType ?? "application/octet-stream" };
}

/** Runs a cron job now, as Encore's dashboard does, and returns the trace of that run. */
export async function runCronNow(id: string): Promise<{ traceId: string | null; ok: boolean; error?: { code?: string; message: string } }> {
  const { traceId, result } = await tracer.capture(() => runCronJob(id));
  if (result.status === "fulfilled") return { traceId, ok: true };
  return { traceId, ok: false, error: traceError(result.reason) };
}

/** Topics with their subscriptions' queues. */
export function pubsubView(model: AppModel) {
  const stats = pubsubStats();
  return model.topics.map((t) => ({
    name: t.name,
    publishers: t.publishers,
    subscriptions: stats.filter((s) => s.topic === t.name),
  }));
}
