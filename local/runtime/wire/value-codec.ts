// The value codec: decodes wire values into handler values and encodes them back, driven by the
// schemas of the app model, the way Encore's runtime does it (runtimes/core/src/api/jsonschema and
// api/pvalue.rs). HTTP requests and responses (http-codec.ts) and internal calls and Pub/Sub messages
// (encodeJson/decodeJson) all go through it.
import type { FieldSchema, ObjectSchema, TypeSchema } from "../../model/app-model";
import type { JsonPath } from "./json-position";
import { parseRfc3339 } from "./rfc3339";
import { validate } from "./validation";

/**
 * A value that does not fit its schema, at `keys` ("items", 2, "name"). The message puts the path
 * first as serde_path_to_error does ("items[2].name: reason"), and no prefix when the path is empty.
 */
export class DecodeError extends Error {
  constructor(
    public readonly keys: JsonPath,
    reason: string,
    /** A container refused by its type before its contents were read (where serde_json stops). */
    public readonly atOpening = false,
  ) {
    const path = keys.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");
    super(path ? `${path}: ${reason}` : reason);
  }
}

/** JSON values arrive typed; path, query and header values arrive as text and are parsed. */
type Source = "json" | "text";

/** serde's way of naming an unexpected value: integer `5`, string "x", boolean `true`. */
export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return `string ${JSON.stringify(v)}`;
  if (typeof v === "number") return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  if (typeof v === "boolean") return `boolean \`${v}\``;
  if (Array.isArray(v)) return "sequence";
  return "map";
}

/** What Encore's decoder says it expected (runtimes/core/src/api/jsonschema/de.rs, `expecting`). */
function expected(t: TypeSchema): string {
  switch (t.kind) {
    case "string":
    case "bytes":
      return "a string";
    case "number":
    case "bigint":
      return "a number";
    case "boolean":
      return "a boolean";
    case "date":
      return "a datetime string";
    case "decimal":
      return "a decimal";
    case "any":
      return "any valid JSON value";
    case "array":
      return "a JSON array";
    case "object":
    case "map":
      return "a JSON object";
    case "null":
      return "null";
    case "literal":
      return JSON.stringify(t.value);
    case "validated":
      return expected(t.base);
    case "union":
      return alternatives(t.types.map(expected));
  }
}

/** de.rs joins a union's alternatives as "a or b" and "a, b, or c". */
function alternatives(items: string[]): string {
  if (items.length < 3) return items.join(" or ");
  return `${items.slice(0, -1).join(", ")}, or ${items[items.length - 1]}`;
}

function typeError(path: JsonPath, v: unknown, t: TypeSchema): DecodeError {
  const refusedContainer = v !== null && typeof v === "object" && t.kind !== "array" && t.kind !== "object" && t.kind !== "map";
  return new DecodeError(path, `invalid type: ${describeValue(v)}, expected ${expected(t)}`, refusedContainer);
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Decodes one value against its type; text values are parsed first. */
export function decodeValue(t: TypeSchema, v: unknown, path: JsonPath, src: Source): unknown {
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
      // chrono's parse_from_rfc3339, as de.rs decodes a datetime: a day that does not exist is an error.
      const parsed = parseRfc3339(v);
      if ("error" in parsed) throw new DecodeError(path, `invalid datetime: ${parsed.error}`);
      return new Date(parsed.ms);
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
      return v.map((item, i) => decodeValue(t.elem, item, [...path, i], src));
    case "map":
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw typeError(path, v, t);
      return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, decodeValue(t.value, item, [...path, k], src)]));
    case "object":
      if (v === null || typeof v !== "object" || Array.isArray(v)) throw typeError(path, v, t);
      return decodeFields(t.fields, v as Record<string, unknown>, path, src);
    case "union":
      return decodeUnion(t, v, path, src);
  }
}

/** The first alternative that takes the value; none: de.rs's invalid type, whatever made each one fail. */
function decodeUnion(t: Extract<TypeSchema, { kind: "union" }>, v: unknown, path: JsonPath, src: Source): unknown {
  for (const alternative of t.types) {
    try {
      return decodeValue(alternative, v, path, src);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
    }
  }
  throw new DecodeError(path, `invalid type: ${describeValue(v)}, expected ${expected(t)}`);
}

/**
 * Decodes an object's declared fields from `obj` (by wire name), leaving out absent optional ones. As
 * de.rs does: the present fields in the order they were sent, then every missing one named at once.
 */
export function decodeFields(fields: FieldSchema[], obj: Record<string, unknown>, path: JsonPath, src: Source): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sent = Object.keys(obj);
  const inOrder = [...fields].sort((a, b) => rank(sent, a.wireName) - rank(sent, b.wireName));
  const missing: string[] = [];
  for (const f of inOrder) {
    const raw = obj[f.wireName];
    if (raw === undefined || (raw === null && f.optional && !acceptsNull(f.type))) {
      if (!f.optional) missing.push(f.wireName);
      continue;
    }
    out[f.name] = decodeValue(f.type, raw, [...path, f.wireName], src);
  }
  if (missing.length === 1) throw new DecodeError(path, `missing field ${missing[0]}`);
  if (missing.length > 1) throw new DecodeError(path, `missing fields ${fieldList(missing)}`);
  return out;
}

/** Where `name` was sent among `sent`; fields not sent come last. */
function rank(sent: string[], name: string): number {
  const at = sent.indexOf(name);
  return at === -1 ? sent.length : at;
}

/** de.rs's FieldList: "`a` and `b`", "`a`, `b`, and `c`". */
function fieldList(names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 2) return quoted.join(" and ");
  return `${quoted.slice(0, -1).join(", ")}, and ${quoted[quoted.length - 1]}`;
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
      decodeValue(t, encodeLoose(v), [], "json");
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
    return decodeFields(asJsonFields(schema), (value ?? {}) as Record<string, unknown>, [], "json");
  } catch (e) {
    if (e instanceof DecodeError) throw new DecodeError([], `${what}: ${e.message}`);
    throw e;
  }
}
