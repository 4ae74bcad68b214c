// The value codec: decodes wire values into handler values and encodes them back, driven by the
// schemas of the app model, the way Encore's runtime does it (runtimes/core/src/api/jsonschema and
// api/pvalue.rs). HTTP requests and responses (http-codec.ts) and internal calls and Pub/Sub messages
// (encodeJson/decodeJson) all go through it.
import type { FieldSchema, ObjectSchema, TypeSchema } from "../../appmodel/model";
import { validate } from "./validation";

/** A value that does not fit its schema; `path` is the field path ("email", "items[2].name"). */
export class DecodeError extends Error {
  constructor(
    public readonly path: string,
    public readonly reason: string,
  ) {
    super(path ? `${path}: ${reason}` : reason);
  }
}

/** JSON values arrive typed; path, query and header values arrive as text and are parsed. */
type Source = "json" | "text";

function join(path: string, key: string | number): string {
  return typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${key}` : key;
}

/** serde's way of naming an unexpected value: integer `5`, string "x", boolean `true`. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "number") return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (typeof v === "boolean") return `boolean \`${v}\``;
  if (Array.isArray(v)) return "sequence";
  return "map";
}

function expected(t: TypeSchema): string {
  switch (t.kind) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "date":
      return "an RFC 3339 timestamp";
    case "array":
      return "a sequence";
    case "object":
    case "map":
      return "a map";
    case "null":
      return "null";
    case "literal":
      return JSON.stringify(t.value);
    case "validated":
      return expected(t.base);
    default:
      return t.kind;
  }
}

function typeError(path: string, v: unknown, t: TypeSchema): DecodeError {
  return new DecodeError(path, `invalid type: ${describeValue(v)}, expected ${expected(t)}`);
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Decodes one value against its type; text values are parsed first. */
export function decodeValue(t: TypeSchema, v: unknown, path: string, src: Source): unknown {
  switch (t.kind) {
    case "validated": {
      const decoded = decodeValue(t.base, v, path, src);
      const err = validate(t.expr, decoded);
      if (err !== null) throw new DecodeError(path, err);
      return decoded;
    }
    case "any":
      return v;
    case "string":
      if (typeof v !== "string") throw typeError(path, v, t);
      return v;
    case "number":
      if (src === "text" && typeof v === "string") {
        if (!NUMBER_TEXT.test(v.trim())) throw new DecodeError(path, `invalid number: ${JSON.stringify(v)}`);
        return Number(v);
      }
      if (typeof v !== "number" || !Number.isFinite(v)) throw typeError(path, v, t);
      return v;
    case "boolean":
      if (src === "text" && (v === "true" || v === "false")) return v === "true";
      if (typeof v !== "boolean") throw typeError(path, v, t);
      return v;
    case "date": {
      if (typeof v !== "string") throw typeError(path, v, t);
      const d = new Date(v);
      if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) {
        throw new DecodeError(path, `invalid RFC 3339 timestamp: ${JSON.stringify(v)}`);
      }
      return d;
    }
    case "bigint":
      if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
      if (typeof v === "string" && /^[+-]?\d+$/.test(v)) return BigInt(v);
      throw typeError(path, v, t);
    case "decimal":
      if (typeof v === "number" || (typeof v === "string" && NUMBER_TEXT.test(v))) return String(v);
      throw typeError(path, v, t);
    case "bytes":
      if (typeof v !== "string") throw typeError(path, v, t);
      return Buffer.from(v, "base64");
    case "null":
      if (v !== null && !(src === "text" && v === "null")) throw typeError(path, v, t);
      return null;
    case "literal": {
      const parsed =
        src === "text" && typeof t.value !== "string" && typeof v === "string"
          ? decodeValue({ kind: typeof t.value as "number" | "boolean" }, v, path, src)
          : v;
      if (parsed !== t.value) throw new DecodeError(path, `invalid value: ${describeValue(v)}, expected ${JSON.stringify(t.value)}`);
      return parsed;
    }
    case "array":
      if (!Array.isArray(v)) throw typeError(path, v, t);
      return v.map((item, i) => decodeValue(t.elem, item, join(path, i), src));
    case "map":
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw typeError(path, v, t);
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, decodeValue(t.value, item, join(path, k), src)]));
    case "object":
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw typeError(path, v, t);
      return decodeFields(t.fields, v as Record<string, unknown>, path, src);
    case "union":
      return decodeUnion(t.types, v, path, src);
  }
}

function decodeUnion(types: TypeSchema[], v: unknown, path: string, src: Source): unknown {
  let firstValidationError: DecodeError | null = null;
  for (const t of types) {
    try {
      return decodeValue(t, v, path, src);
    } catch (e) {
      // A variant whose type matched but whose rule failed explains the failure best.
      if (e instanceof DecodeError && firstValidationError === null && !e.reason.startsWith("invalid")) {
        firstValidationError = e;
      }
    }
  }
  if (firstValidationError) throw firstValidationError;
  const literals = types.filter((t): t is { kind: "literal"; value: string } => t.kind === "literal");
  if (literals.length === types.length) {
    throw new DecodeError(
      path,
      `unknown variant ${describeValue(v)}, expected one of ${literals.map((l) => JSON.stringify(l.value)).join(", ")}`,
    );
  }
  throw new DecodeError(path, `invalid value: ${describeValue(v)}, expected one of: ${types.map(expected).join(", ")}`);
}

/** Decodes an object's declared fields from `obj` (by wire name), leaving out absent optional ones. */
export function decodeFields(fields: FieldSchema[], obj: Record<string, unknown>, path: string, src: Source): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = obj[f.wireName];
    if (raw === undefined || (raw === null && f.optional && !acceptsNull(f.type))) {
      if (!f.optional) throw new DecodeError(path, `missing field \`${f.wireName}\``);
      continue;
    }
    out[f.name] = decodeValue(f.type, raw, join(path, f.wireName), src);
  }
  return out;
}

function acceptsNull(t: TypeSchema): boolean {
  return t.kind === "null" || t.kind === "any" || (t.kind === "union" && t.types.some(acceptsNull));
}

/**
 * A Date as Encore writes it in JSON: chrono's RFC 3339 with SecondsFormat::AutoSi and "Z", so whole
 * seconds carry no fraction and others milliseconds (runtimes/core/src/api/pvalue.rs serializes chrono's
 * DateTime; runtimes/js/src/pvalue.rs truncates a JS Date to milliseconds).
 */
export function encoreJsonDate(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, "Z");
}

/** Encodes a handler value for the wire: Dates as RFC 3339, only declared fields, undefined omitted. */
export function encodeValue(t: TypeSchema, v: unknown): unknown {
  if (v === undefined || v === null) return v ?? null;
  switch (t.kind) {
    case "validated":
      return encodeValue(t.base, v);
    case "date":
      return v instanceof Date ? encoreJsonDate(v) : v;
    case "bigint":
    case "decimal":
      return typeof v === "object" || typeof v === "bigint" ? String(v) : v;
    case "bytes":
      return Buffer.isBuffer(v) ? v.toString("base64") : v;
    case "array":
      return Array.isArray(v) ? v.map((item) => encodeValue(t.elem, item)) : v;
    case "map":
      return Object.fromEntries(Object.entries(v as object).map(([k, item]) => [k, encodeValue(t.value, item)]));
    case "object":
      return encodeFields(t.fields, v as Record<string, unknown>);
    case "union":
      return encodeUnion(t.types, v);
    default:
      // Strings, numbers and booleans are already wire values; only odd values need the JSON round trip.
      return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? v : encodeLoose(v);
  }
}

function encodeUnion(types: TypeSchema[], v: unknown): unknown {
  const fits = types.find((t) => {
    try {
      decodeValue(t, encodeLoose(v), "", "json");
      return true;
    } catch {
      return false;
    }
  });
  return fits ? encodeValue(fits, v) : encodeLoose(v);
}

/** JSON-ready form of a value the schema does not describe (any, literal, string...). */
function encodeLoose(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x)) ?? "null");
}

function encodeFields(fields: FieldSchema[], obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = obj[f.name];
    if (v !== undefined) out[f.wireName] = encodeValue(f.type, v);
  }
  return out;
}

/** Same schema, every field carried in JSON under its property name (internal calls, Pub/Sub). */
function asJsonFields(schema: ObjectSchema): FieldSchema[] {
  return schema.fields.filter((f) => f.location !== "httpstatus").map((f) => ({ ...f, wireName: f.name, location: "default" as const }));
}

/** Encodes a message or internal-call payload with its schema (what Encore puts on the wire). */
export function encodeJson(schema: ObjectSchema, value: unknown): Record<string, unknown> {
  return encodeFields(asJsonFields(schema), (value ?? {}) as Record<string, unknown>);
}

/** Decodes a message or internal-call payload; throws DecodeError naming the field. */
export function decodeJson(schema: ObjectSchema, value: unknown, what: string): Record<string, unknown> {
  try {
    return decodeFields(asJsonFields(schema), (value ?? {}) as Record<string, unknown>, "", "json");
  } catch (e) {
    if (e instanceof DecodeError) throw new DecodeError("", `${what}: ${e.message}`);
    throw e;
  }
}
