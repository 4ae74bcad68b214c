// Query parameters, converted as Encore's runtime converts them (runtimes/js/src/pvalue.rs turns the
// JS value into a PValue, runtimes/core/src/sqldb/val.rs ToSql writes it for the parameter's type),
// then sent in PostgreSQL's text format. Encore is strict where a driver like pg is lenient: a string
// is not accepted for an int4 parameter, an object only for json/jsonb, a Date not for time.
import { canonicalDecimal, decimalFitsInt } from "./numeric";
import { OID, isWritable, type PgType } from "./types";

/** What a quoted array element must escape with a backslash: backslashes and double quotes. */
const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/**
 * A one-dimensional array literal from element texts, every element quoted (PostgreSQL's array input
 * syntax); postgres-array only parses, and pg's own writer is not part of its public API.
 */
function formatArrayLiteral(items: readonly (string | null)[]): string {
  let out = "{";
  for (let i = 0; i < items.length; i++) {
    const e = items[i];
    if (i > 0) out += ",";
    // Most elements need no escaping: testing first spares two replace() copies of each (a click batch sends eleven arrays).
    out += e === null ? "NULL" : NEEDS_ESCAPE.test(e) ? `"${e.replace(ESCAPED, "\\$&")}"` : `"${e}"`;
  }
  return out + "}";
}

/** A conversion failure, worded like tokio-postgres' "error serializing parameter N: ...". */
class ParamError extends Error {}

/** Checks a JS value as napi's PValue conversion does when QueryArgs is constructed. */
export function checkQueryArg(value: unknown, depth = 0): void {
  if (depth > 128) throw new Error("value exceeds the maximum nesting depth of 128; does it contain a circular reference?");
  switch (typeof value) {
    case "function":
      throw new Error("JS functions cannot be represented as a serde_json::Value");
    case "symbol":
      throw new Error("JS symbols cannot be represented as a serde_json::Value");
    case "undefined":
      throw new Error("undefined cannot be represented as a serde_json::Value");
    case "number":
      if (!Number.isFinite(value)) throw new Error(`${value} cannot be represented as a SQL parameter`);
      return;
    case "object":
      if (value === null || ArrayBuffer.isView(value) || isDecimal(value)) return;
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new Error("invalid Date cannot be represented as a SQL parameter");
        return;
      }
      if (Array.isArray(value)) {
        for (const v of value) checkQueryArg(v, depth + 1);
        return;
      }
      for (const v of Object.values(value)) if (v !== undefined) checkQueryArg(v, depth + 1);
      return;
  }
}

/** Encodes every parameter for its described type; throws Encore's message on a mismatch. */
export function encodeParams(values: readonly unknown[], types: readonly PgType[]): (string | null)[] {
  if (values.length !== types.length) {
    throw new Error(`expected ${types.length} parameters but got ${values.length}`);
  }
  return values.map((v, i) => {
    const t = types[i];
    try {
      if (!isWritable(t)) {
        throw new ParamError(
          `cannot convert between the Rust type \`encore_runtime_core::sqldb::val::RowValue\` and the Postgres type \`${t.name}\``,
        );
      }
      return encode(v, t);
    } catch (err) {
      if (err instanceof ParamError) throw new Error(`error serializing parameter ${i}: ${err.message}`);
      throw err;
    }
  });
}

function encode(v: unknown, t: PgType): string | null {
  if (t.oid === OID.json || t.oid === OID.jsonb) {
    // Encore serializes any value, null included, as JSON for json/jsonb: null becomes JSON null.
    if (ArrayBuffer.isView(v)) throw new ParamError(`bytes not supported for column of type ${t.name}`);
    return toJson(v);
  }
  if (v === null) return null;
  if (ArrayBuffer.isView(v)) return encodeBytes(v, t);
  if (t.kind === "array") {
    if (!Array.isArray(v)) return encodeScalar(v, t);
    return formatArrayLiteral(
      v.map((e) => {
        if (Array.isArray(e) && t.elem!.name !== "vector") {
          throw new ParamError(`nested arrays are not supported for column of type ${t.name}`);
        }
        // Only a top-level Buffer is bytes to Encore; inside an array it converts as a plain object.
        if (ArrayBuffer.isView(e)) throw new ParamError(`object not supported for column of type ${t.elem!.name}`);
        return t.elem!.oid === OID.json || t.elem!.oid === OID.jsonb ? toJson(e) : e === null ? null : encode(e, t.elem!);
      }),
    );
  }
  return encodeScalar(v, t);
}

function encodeBytes(v: ArrayBufferView, t: PgType): string {
  const buf = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (t.oid === OID.bytea) return `\\x${buf.toString("hex")}`;
  if (t.oid === OID.text || t.oid === OID.varchar) return buf.toString("utf8");
  throw new ParamError(`bytes not supported for column of type ${t.name}`);
}

function encodeScalar(v: unknown, t: PgType): string {
  const ty = t.name;
  if (typeof v === "boolean") {
    if (t.oid === OID.bool) return v ? "t" : "f";
    if (isText(t)) return String(v);
    throw new ParamError(`bool not supported for column of type ${ty}`);
  }
  if (typeof v === "string") return encodeString(v, t);
  if (typeof v === "number") return encodeNumber(v, t);
  if (isDecimal(v)) return encodeDecimal(decimalText(v), t);
  if (v instanceof Date) {
    const iso = v.toISOString();
    if (t.oid === OID.date) return iso.slice(0, 10);
    if (t.oid === OID.timestamp) return iso.slice(0, -1);
    if (t.oid === OID.timestamptz) return iso;
    if (isText(t)) return rfc3339(v);
    throw new ParamError(`unsupported type for DateTime: ${ty}`);
  }
  if (Array.isArray(v)) {
    if (t.name === "vector") return `[${v.map((n) => vectorElement(n)).join(",")}]`;
    throw new ParamError(`array not supported for column of type ${ty}`);
  }
  throw new ParamError(`object not supported for column of type ${ty}`);
}

/** The strings a date or time column takes; any other is refused before the query is sent. */
const DATE_TIME_FORMATS: Record<number, RegExp> = {
  [OID.timestamp]: /^\s*[+-]?\d{4,}-\d{1,2}-\d{1,2}[Tt ]\d{1,2}:\d{1,2}:\d{1,2}(\.\d+)?\s*$/,
  [OID.timestamptz]: /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  [OID.date]: /^[+-]?\d+-\d{1,2}-\d{1,2}$/,
  [OID.time]: /^\d{1,2}:\d{1,2}:\d{1,2}$/,
};
const UUID_RE = /^(?:urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

const invalid = () => new ParamError("input contains invalid characters");

function encodeString(v: string, t: PgType): string {
  switch (t.oid) {
    case OID.text:
    case OID.varchar:
    case OID.name:
    case OID.cidr:
    case OID.inet:
      return v;
    case OID.bytea:
      return `\\x${Buffer.from(v, "utf8").toString("hex")}`;
    case OID.timestamp:
    case OID.timestamptz:
    case OID.date:
    case OID.time:
      if (!DATE_TIME_FORMATS[t.oid].test(v)) throw invalid();
      return v;
    case OID.uuid: {
      const m = UUID_RE.exec(v);
      if (!m) throw new ParamError("unable to parse uuid");
      return m.slice(1).join("-").toLowerCase();
    }
    case OID.numeric: {
      const d = canonicalDecimal(v);
      if (d === null) throw new ParamError(`Failed to parse decimal from string: ${v}`);
      return d;
    }
  }
  if (t.kind === "enum") return v;
  if (t.name === "vector") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      throw new ParamError("unable to parse vector");
    }
    if (!Array.isArray(parsed)) throw new ParamError("unable to parse vector");
    return `[${parsed.map((n) => vectorElement(n)).join(",")}]`;
  }
  throw new ParamError(`string not supported for column of type ${t.name}`);
}

const INT_RANGES: Record<number, [string, bigint, bigint]> = {
  [OID.int2]: ["i16", -(2n ** 15n), 2n ** 15n - 1n],
  [OID.int4]: ["i32", -(2n ** 31n), 2n ** 31n - 1n],
  [OID.int8]: ["i64", -(2n ** 63n), 2n ** 63n - 1n],
  [OID.oid]: ["u32", 0n, 2n ** 32n - 1n],
};

function encodeNumber(v: number, t: PgType): string {
  const range = INT_RANGES[t.oid];
  if (range) {
    const [rust, min, max] = range;
    if (!Number.isInteger(v) || BigInt(v) < min || BigInt(v) > max) {
      throw new ParamError(`number ${v} is not an ${rust}`);
    }
    return BigInt(v).toString();
  }
  if (t.oid === OID.float4 || t.oid === OID.float8) return String(v);
  if (t.oid === OID.numeric) return canonicalDecimal(String(v))!;
  if (isText(t)) return String(v);
  // Encore writes the raw binary integer or float here, which the server rejects or misreads.
  throw new ParamError(`number not supported for column of type ${t.name}`);
}

function encodeDecimal(d: string, t: PgType): string {
  const range = INT_RANGES[t.oid];
  if (range && t.oid !== OID.oid) {
    if (!decimalFitsInt(d, range[1], range[2])) throw new ParamError(`Cannot convert decimal to ${t.name.toUpperCase()}`);
    return d;
  }
  if (t.oid === OID.numeric || isText(t)) return d;
  if (t.oid === OID.float4 || t.oid === OID.float8) return String(Number(d));
  throw new ParamError(`unsupported type for Decimal: ${t.name}`);
}

function vectorElement(n: unknown): string {
  if (typeof n !== "number") throw new ParamError("vector element must be a number");
  return String(Math.fround(n));
}

function isText(t: PgType): boolean {
  return t.oid === OID.text || t.oid === OID.varchar;
}

/** A JS bigint or an encore.dev/types Decimal, both of which Encore treats as a Decimal. */
function isDecimal(v: unknown): v is bigint | { value: string } {
  return typeof v === "bigint" || (typeof v === "object" && v !== null && "__encore_decimal" in v);
}

function decimalText(v: bigint | { value: string }): string {
  const text = typeof v === "bigint" ? v.toString() : canonicalDecimal(String(v.value));
  if (text === null) throw new ParamError(`Failed to parse Decimal value: ${String((v as { value: string }).value)}`);
  return text;
}

/** chrono's to_rfc3339() of a UTC instant: "2024-01-02T03:04:05.678+00:00". */
function rfc3339(d: Date): string {
  const iso = d.toISOString();
  return `${d.getUTCMilliseconds() === 0 ? iso.slice(0, 19) : iso.slice(0, 23)}+00:00`;
}

/** serde_json's rendering of a PValue: object keys sorted (a BTreeMap), Decimals and Dates as strings. */
function toJson(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (isDecimal(v)) return JSON.stringify(decimalText(v));
  if (v instanceof Date) return JSON.stringify(rfc3339(v));
  if (Array.isArray(v)) return `[${v.map(toJson).join(",")}]`;
  if (typeof v === "object") {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}
