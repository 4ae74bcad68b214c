// PostgreSQL types as Encore's runtime sees them: tokio-postgres matches built-in types by OID,
// enums and arrays by their catalog kind, pgvector by name. Names print like tokio-postgres'
// Type Display (the catalog's typname: "int4", "_text", "bpchar").

/** A PostgreSQL type, resolved from the catalog when it is not a well-known built-in. */
export interface PgType {
  oid: number;
  name: string;
  kind: "base" | "enum" | "array" | "other";
  /** The element type of an array. */
  elem?: PgType;
}

/** OIDs of the built-in types Encore converts (runtimes/core/src/sqldb/val.rs). */
export const OID = {
  bool: 16,
  bytea: 17,
  name: 19,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  oid: 26,
  json: 114,
  cidr: 650,
  float4: 700,
  float8: 701,
  inet: 869,
  varchar: 1043,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
} as const;

/** Array OIDs of those built-ins, so common array columns need no catalog lookup. */
const ARRAY_OF: Record<number, number> = {
  1000: OID.bool,
  1001: OID.bytea,
  1003: OID.name,
  1016: OID.int8,
  1005: OID.int2,
  1007: OID.int4,
  1009: OID.text,
  1028: OID.oid,
  199: OID.json,
  651: OID.cidr,
  1021: OID.float4,
  1022: OID.float8,
  1041: OID.inet,
  1015: OID.varchar,
  1182: OID.date,
  1183: OID.time,
  1115: OID.timestamp,
  1185: OID.timestamptz,
  1231: OID.numeric,
  2951: OID.uuid,
  3807: OID.jsonb,
};

const BUILTIN = new Map<number, PgType>(Object.entries(OID).map(([name, oid]) => [oid, { oid, name, kind: "base" as const }]));
for (const [arrayOid, elemOid] of Object.entries(ARRAY_OF)) {
  const elem = BUILTIN.get(elemOid)!;
  BUILTIN.set(Number(arrayOid), { oid: Number(arrayOid), name: `_${elem.name}`, kind: "array", elem });
}

/** One row of pg_type, as the catalog query returns it. */
export interface CatalogRow {
  oid: number;
  name: string;
  typtype: string;
  typcategory: string;
  typelem: number;
}

/** The catalog query for types that are not well-known built-ins; $1 is an int4[] literal. */
export const CATALOG_SQL =
  "SELECT oid::int4, typname::text, typtype::text, typcategory::text, typelem::int4 FROM pg_catalog.pg_type WHERE oid = ANY($1::int4[])";

/** Per-database type cache; resolves unknown OIDs through a catalog lookup function. */
export class TypeCatalog {
  private readonly known = new Map<number, PgType>(BUILTIN);

  /** The types for these OIDs, asking the catalog (with lookup) about any not seen yet. */
  async resolve(oids: readonly number[], lookup: (oids: number[]) => Promise<CatalogRow[]>): Promise<PgType[]> {
    // Every statement resolves its types twice: almost always all known, so no lookup state is built.
    const cached = oids.map((o) => this.known.get(o));
    if (!cached.includes(undefined)) return cached as PgType[];
    let missing = [...new Set(oids.filter((_, i) => cached[i] === undefined))];
    const rows = new Map<number, CatalogRow>();
    while (missing.length > 0) {
      for (const row of await lookup(missing)) rows.set(row.oid, row);
      // Array element types may themselves be unknown: look those up in the next round.
      missing = [...rows.values()]
        .filter((r) => r.typcategory === "A" && r.typelem !== 0 && !this.known.has(r.typelem) && !rows.has(r.typelem))
        .map((r) => r.typelem);
    }
    const build = (oid: number): PgType => {
      const hit = this.known.get(oid);
      if (hit) return hit;
      const row = rows.get(oid);
      if (!row) throw new Error(`unknown PostgreSQL type oid ${oid}`);
      const type: PgType =
        row.typcategory === "A" && row.typelem !== 0
          ? { oid, name: row.name, kind: "array", elem: build(row.typelem) }
          : { oid, name: row.name, kind: row.typtype === "e" ? "enum" : row.typtype === "b" ? "base" : "other" };
      this.known.set(oid, type);
      return type;
    };
    return oids.map(build);
  }
}

/** Whether Encore can read a column of this scalar type into a JS value (PValue or RowValue). */
export function isReadableScalar(t: PgType): boolean {
  return t.kind === "enum" || isPValueBuiltin(t) || t.oid === OID.bytea || t.oid === OID.uuid || t.name === "vector";
}

/** Whether the type may be an array element on read: PValue's accepts(), which excludes bytea and uuid. */
export function isReadableElement(t: PgType): boolean {
  return t.kind === "enum" || isPValueBuiltin(t) || t.name === "vector";
}

/** Whether Encore accepts a parameter of this type (RowValue's and PValue's accepts()). */
export function isWritable(t: PgType): boolean {
  if (t.kind === "array") return t.elem !== undefined && isWritable(t.elem);
  return isReadableScalar(t);
}

const PVALUE_BUILTINS = new Set<number>([
  OID.bool,
  OID.text,
  OID.varchar,
  OID.int2,
  OID.int4,
  OID.int8,
  OID.oid,
  OID.jsonb,
  OID.json,
  OID.float4,
  OID.float8,
  OID.timestamp,
  OID.timestamptz,
  OID.date,
  OID.time,
  OID.cidr,
  OID.inet,
  OID.name,
  OID.numeric,
]);

function isPValueBuiltin(t: PgType): boolean {
  return t.kind === "base" && PVALUE_BUILTINS.has(t.oid);
}
