// Running one statement on a session the way tokio-postgres does under Encore: describe it (its
// parameter types decide how each value is converted), convert the parameters, execute.
import { type Column, type Outcome, QueryArgs } from "./cursor";
import type { Engine, Session } from "./engine";
import { encodeParams } from "./encode";
import { dbErrorDisplay, isPgError, napiError } from "./errors";
import { CATALOG_SQL, type CatalogRow } from "./types";

/** Runs a statement. Preparation and conversion errors reject; execution errors come back as an Outcome. */
export async function runStatement(engine: Engine, session: Session, sql: string, args: QueryArgs): Promise<Outcome> {
  const holder = session.holder;
  holder.inFlight++;
  try {
    let desc = engine.described.get(sql);
    if (desc === undefined) {
      try {
        desc = await session.describe(sql);
      } catch (err) {
        throw isPgError(err) ? napiError(dbErrorDisplay(err)) : err;
      }
      engine.described.set(sql, desc);
    }
    const lookup = (oids: number[]) => lookupTypes(session, oids);
    const paramTypes = await engine.types.resolve(desc.paramTypes, lookup);
    let params: (string | null)[];
    try {
      params = encodeParams(args.values, paramTypes);
    } catch (err) {
      throw napiError((err as Error).message);
    }
    let result;
    try {
      result = await session.execute(sql, params);
    } catch (err) {
      if (!isPgError(err)) throw err;
      // The schema may have changed under a cached description; describe afresh next time.
      engine.described.delete(sql);
      return { failed: err };
    }
    const types = await engine.types.resolve(
      result.fields.map((f) => f.oid),
      lookup,
    );
    const columns: Column[] = result.fields.map((f, i) => ({ name: f.name, type: types[i] }));
    return { columns, rows: result.rows };
  } finally {
    holder.inFlight--;
    holder.idleSince = Date.now();
  }
}

/** Reads pg_type rows for OIDs that are not well-known built-ins. */
async function lookupTypes(session: Session, oids: number[]): Promise<CatalogRow[]> {
  const r = await session.execute(CATALOG_SQL, [`{${oids.join(",")}}`]);
  return r.rows.map(([oid, name, typtype, typcategory, typelem]) => ({
    oid: Number(oid),
    name: name!,
    typtype: typtype!,
    typcategory: typcategory!,
    typelem: Number(typelem),
  }));
}

/** Converts a failure of a session command (BEGIN, COMMIT, ...) to the error Encore reports. */
export function commandError(err: unknown): Error {
  if (isPgError(err)) return napiError(dbErrorDisplay(err));
  return err instanceof Error ? napiError(err.message) : napiError(String(err));
}
