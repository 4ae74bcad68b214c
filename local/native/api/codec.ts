// Turns wire data into handler parameters and handler results into wire data, driven by the
// request/response schemas of the app model, the way Encore's runtime does it (runtimes/core/src/api/schema).
import type { EndpointModel, FieldSchema, ObjectSchema, TypeSchema } from "../../appmodel/model";
import { validate } from "./validation";
import { fail } from "./errors";

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
function describe(v: unknown): string {
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
  return new DecodeError(path, `invalid type: ${describe(v)}, expected ${expected(t)}`);
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
      if (parsed !== t.value) throw new DecodeError(path, `invalid value: ${describe(v)}, expected ${JSON.stringify(t.value)}`);
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
      `unknown variant ${describe(v)}, expected one of ${literals.map((l) => JSON.stringify(l.value)).join(", ")}`,
    );
  }
  throw new DecodeError(path, `invalid value: ${describe(v)}, expected one of: ${types.map(expected).join(", ")}`);
}

function decodeFields(fields: FieldSchema[], obj: Record<string, unknown>, path: string, src: Source): Record<string, unknown> {
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
function encoreJsonDate(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, "Z");
}

/** A Date in a response header: chrono's `to_rfc3339()`, the same digits with "+00:00" (api/schema/header.rs). */
function encoreHeaderDate(d: Date): string {
  return encoreJsonDate(d).replace(/Z$/, "+00:00");
}

/** Encodes a handler value for the wire: Dates as RFC 3339, only declared fields, undefined omitted. */
function encodeValue(t: TypeSchema, v: unknown): unknown {
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

const QUERY_METHODS = new Set(["GET", "HEAD", "DELETE"]);

/** The parts of an HTTP request the decoder reads. */
export interface HttpRequestParts {
  method: string;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string>;
  body: Buffer;
}

/** Path params named in an Encore path (":code", "*rest", "!fallback"). */
function pathParamNames(path: string): Set<string> {
  return new Set(
    path
      .split("/")
      .filter((s) => /^[:*!]/.test(s))
      .map((s) => s.slice(1)),
  );
}

/** Where a field travels for this request method. */
function placement(ep: EndpointModel, f: FieldSchema, method: string): FieldSchema["location"] | "body" {
  if (f.location !== "default") return f.location;
  if (pathParamNames(ep.path).has(f.name)) return "path";
  return QUERY_METHODS.has(method) ? "query" : "body";
}

function isArrayType(t: TypeSchema): boolean {
  if (t.kind === "array") return true;
  if (t.kind === "validated") return isArrayType(t.base);
  if (t.kind === "union") return t.types.some(isArrayType);
  return false;
}

/** Builds the handler's parameter object from an HTTP request, or throws an invalid_argument signal. */
export function decodeHttpRequest(ep: EndpointModel, req: HttpRequestParts): Record<string, unknown> | null {
  if (ep.request === null) return null;
  const out: Record<string, unknown> = {};
  const bodyFields: FieldSchema[] = [];
  for (const f of ep.request.fields) {
    const where = placement(ep, f, req.method);
    if (where === "body") {
      bodyFields.push(f);
      continue;
    }
    if (where === "httpstatus") continue;
    try {
      const raw = readTextField(where, f, req);
      if (raw === undefined) {
        if (!f.optional) throw missing(where, f);
        continue;
      }
      out[f.name] = decodeValue(f.type, raw, f.wireName, "text");
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      throw fail("invalid_argument", `${decodePrefix(where)}: ${e.message}`);
    }
  }
  if (bodyFields.length > 0) Object.assign(out, decodeBody(bodyFields, req.body));
  return out;
}

function readTextField(where: string, f: FieldSchema, req: HttpRequestParts): unknown {
  switch (where) {
    case "path":
      return req.pathParams[f.name];
    case "header": {
      const v = req.headers[f.wireName.toLowerCase()];
      return Array.isArray(v) ? v.join(", ") : v;
    }
    case "cookie":
      return req.cookies[f.wireName];
    default: {
      const all = req.query.getAll(f.wireName);
      if (all.length === 0) return undefined;
      return isArrayType(f.type) ? all : all[0];
    }
  }
}

function missing(where: string, f: FieldSchema): Error {
  if (where === "header") return fail("invalid_argument", `missing header parameter: ${f.wireName}`);
  if (where === "cookie") return fail("invalid_argument", `missing cookie: ${f.wireName}`);
  return fail("invalid_argument", `${decodePrefix(where)}: missing field \`${f.wireName}\``);
}

function decodePrefix(where: string): string {
  if (where === "header") return "invalid header value";
  if (where === "path") return "invalid path parameter";
  if (where === "cookie") return "invalid cookie";
  return "unable to decode query string";
}

function decodeBody(fields: FieldSchema[], body: Buffer): Record<string, unknown> {
  const prefix = "unable to decode request body";
  let parsed: unknown;
  if (body.length > 0) {
    try {
      parsed = JSON.parse(body.toString("utf8"));
    } catch (e) {
      throw fail("invalid_argument", `${prefix}: invalid JSON: ${(e as Error).message}`);
    }
  } else {
    // Encore hands the raw bytes to serde_json whenever there are body fields, even all-optional ones.
    throw fail("invalid_argument", `${prefix}: EOF while parsing a value at line 1 column 0`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw fail("invalid_argument", `${prefix}: invalid type: ${describe(parsed)}, expected a map`);
  }
  try {
    return decodeFields(fields, parsed as Record<string, unknown>, "", "json");
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw fail("invalid_argument", `${prefix}: ${e.message}`);
  }
}

/** What an endpoint's result becomes on the wire. */
export interface HttpResponseParts {
  status: number;
  headers: Record<string, string | string[]>;
  /** null: no body at all (void response, or a response type with no body fields). */
  body: Record<string, unknown> | null;
}

/** Splits a handler's result into status, headers and JSON body by the response schema. */
export function encodeHttpResponse(ep: EndpointModel, payload: unknown): HttpResponseParts {
  const out: HttpResponseParts = { status: 200, headers: {}, body: null };
  if (ep.response === null) return out;
  const obj = (payload ?? {}) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  let hasBodyFields = false;
  for (const f of ep.response.fields) {
    const v = obj[f.name];
    switch (f.location) {
      case "httpstatus":
        if (typeof v === "number") out.status = v;
        break;
      case "header":
        if (v !== undefined && v !== null) out.headers[f.wireName] = v instanceof Date ? encoreHeaderDate(v) : String(v);
        break;
      case "cookie":
        if (v !== undefined && v !== null) appendCookie(out.headers, f.wireName, v);
        break;
      default:
        hasBodyFields = true;
        if (v !== undefined) body[f.wireName] = encodeValue(f.type, v);
    }
  }
  if (hasBodyFields) out.body = body;
  return out;
}

function appendCookie(headers: HttpResponseParts["headers"], name: string, v: unknown): void {
  const c = (typeof v === "object" && v !== null && "value" in v ? v : { value: v }) as Record<string, unknown>;
  const parts = [`${name}=${encodeURIComponent(String(c.value instanceof Date ? c.value.toISOString() : c.value))}`];
  if (c.expires instanceof Date) parts.push(`Expires=${c.expires.toUTCString()}`);
  if (typeof c.maxAge === "number") parts.push(`Max-Age=${c.maxAge}`);
  if (c.domain) parts.push(`Domain=${c.domain}`);
  if (c.path) parts.push(`Path=${c.path}`);
  if (c.sameSite) parts.push(`SameSite=${c.sameSite}`);
  if (c.secure) parts.push("Secure");
  if (c.httpOnly) parts.push("HttpOnly");
  if (c.partitioned) parts.push("Partitioned");
  const prev = headers["Set-Cookie"];
  headers["Set-Cookie"] = [...(prev === undefined ? [] : ([] as string[]).concat(prev)), parts.join("; ")];
}
