// Column values, turned into the JS values Encore's runtime gives (runtimes/core/src/sqldb/val.rs
// FromSql, runtimes/js/src/pvalue.rs to JS). Both engines hand us PostgreSQL's text output, so the
// two give identical values.
import { parse as parseArray } from "postgres-array";
import { toSdkDecimal } from "../core/decimal";
import { canonicalDecimal } from "./numeric";
import { OID, isReadableElement, isReadableScalar, type PgType } from "./types";

/** Decodes one column's text; throws Encore's "unable to parse column" error when it cannot. */
export function decodeColumn(text: string | null, t: PgType, column: string): unknown {
  try {
    return decode(text, t);
  } catch (err) {
    throw new Error(`unable to parse column ${column}: ${(err as Error).message}`);
  }
}

function decode(text: string | null, t: PgType): unknown {
  if (t.kind === "array") {
    if (!t.elem || !isReadableElement(t.elem)) throw new Error(`unsupported type: ${t.name}`);
    if (text === null) return null;
    // postgres-array (the parser behind pg-types) reads the text output: NULL as null, nested arrays as arrays.
    const items = parseArray(text) as (string | null | unknown[])[];
    if (items.some((e) => Array.isArray(e))) throw new Error("array contains too many dimensions");
    return (items as (string | null)[]).map((e) => decode(e, t.elem!));
  }
  if (!isReadableScalar(t)) throw new Error(`unsupported type: ${t.name}`);
  if (text === null) return null;
  switch (t.oid) {
    case OID.bool:
      return text === "t";
    case OID.int2:
    case OID.int4:
    case OID.oid:
      return Number(text);
    case OID.int8: {
      // napi-rs hands out i64 values beyond ±(2^53-1) as BigInt rather than lose precision.
      const n = BigInt(text);
      return n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER) ? n : Number(n);
    }
    case OID.float4:
      return finiteOrNull(Math.fround(Number(text)));
    case OID.float8:
      return finiteOrNull(Number(text));
    case OID.numeric: {
      const d = canonicalDecimal(text);
      if (d === null) throw new Error(`Failed to parse decimal from string: ${text}`);
      return toSdkDecimal(d);
    }
    case OID.timestamp:
    case OID.timestamptz:
      return parseTimestamp(text);
    case OID.time:
      return chronoTime(text);
    case OID.json:
    case OID.jsonb:
      return JSON.parse(text);
    case OID.bytea:
      return hexToArrayBuffer(text);
  }
  if (t.name === "vector") return (JSON.parse(text) as number[]).map((n) => finiteOrNull(Math.fround(n)));
  // text, varchar, name, date, uuid, inet, cidr and enums arrive as Encore gives them.
  return text;
}

function finiteOrNull(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

const TIMESTAMP_RE = /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?( BC)?$/;

/** A timestamp's ISO output (DateStyle ISO) as a Date, truncated to milliseconds like chrono's timestamp_millis. */
function parseTimestamp(text: string): Date {
  const m = TIMESTAMP_RE.exec(text);
  if (!m) throw new Error(`timestamp out of range: ${text}`);
  const year = m[12] ? 1 - Number(m[1]) : Number(m[1]);
  const d = new Date(0);
  d.setUTCFullYear(year, Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), Math.floor(Number((m[7] ?? "").padEnd(6, "0")) / 1000));
  if (m[8]) {
    const offsetSeconds = Number(m[9]) * 3600 + Number(m[10] ?? 0) * 60 + Number(m[11] ?? 0);
    d.setTime(d.getTime() - (m[8] === "-" ? -1 : 1) * offsetSeconds * 1000);
  }
  return d;
}

/** chrono's NaiveTime Display: the fraction shown as 3 or 6 digits, or not at all. */
function chronoTime(text: string): string {
  const [hms, frac = ""] = text.split(".");
  const micros = Number(frac.padEnd(6, "0"));
  if (micros === 0) return hms;
  return micros % 1000 === 0 ? `${hms}.${frac.padEnd(3, "0").slice(0, 3)}` : `${hms}.${frac.padEnd(6, "0")}`;
}

function hexToArrayBuffer(text: string): ArrayBuffer {
  if (!text.startsWith("\\x")) throw new Error("bytea is not in hex output format");
  const buf = Buffer.from(text.slice(2), "hex");
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}
