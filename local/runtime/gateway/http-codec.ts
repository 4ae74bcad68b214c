// The HTTP codec: builds a handler's parameters from an HTTP request (path, query string, headers,
// cookies, JSON body) and splits its result into status, headers and body, by the endpoint's schemas,
// the way Encore's runtime does it (runtimes/core/src/api/schema). Values go through value-codec.ts.
import type { EndpointModel, FieldSchema, TypeSchema } from "../../model/app-model";
import { fail } from "../wire/errors";
import { serdePosition } from "../wire/json-position";
import { DecodeError, decodeFields, decodeValue, describeValue, encodeValue, encoreJsonDate } from "../wire/value-codec";

/** A Date in a response header: chrono's `to_rfc3339()`, the same digits with "+00:00" (api/schema/header.rs). */
function encoreHeaderDate(d: Date): string {
  return encoreJsonDate(d).replace(/Z$/, "+00:00");
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

const NOT_VISIBLE_ASCII = /[^\t\x20-\x7e]/;

/**
 * The Cookie header's pairs as Encore reads them: the `cookie` crate's split_parse into a CookieJar
 * (runtimes/core/src/api/schema/cookie.rs, cookie 0.18.1), so values stay raw (no percent-decoding,
 * quotes kept), a later pair of the same name replaces an earlier one, and a pair without "=" or a name
 * is dropped. npm's `cookie` percent-decodes and keeps the first of a name, so it would read another value.
 * `lines` are the request's Cookie header lines apart: node joins them in req.headers.cookie.
 */
export function parseCookieHeader(lines: readonly string[]): Record<string, string> {
  // No prototype: a cookie named "__proto__" or "constructor" is a cookie like any other.
  const out = Object.create(null) as Record<string, string>;
  for (const line of lines) {
    // HeaderValue::to_str fails on anything but visible ASCII and tab, and Encore then skips that line whole.
    if (NOT_VISIBLE_ASCII.test(line)) continue;
    for (const pair of line.split(";")) {
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      if (eq >= 0 && name !== "") out[name] = pair.slice(eq + 1).trim();
    }
  }
  return out;
}

const NO_LINES: readonly string[] = Object.freeze([]);

/** A request's Cookie header lines, each apart (none, at no cost, for a request without cookies). */
export function cookieLines(joined: string | undefined, rawHeaders: readonly string[]): readonly string[] {
  if (joined === undefined) return NO_LINES;
  const lines: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === "cookie") lines.push(rawHeaders[i + 1]);
  return lines;
}

/** A `Cookie<>` parameter as Encore hands it to a handler: its name and value (runtimes/js/src/cookies.rs cookie_to_napi_value). */
export function cookieParam(name: string, value: unknown): { name: string; value: unknown } {
  return { name, value };
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
      const value = decodeValue(f.type, raw, [f.wireName], "text");
      out[f.name] = where === "cookie" ? cookieParam(f.wireName, value) : value;
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
  // jsonschema/parse.rs, CookieJar's parse_with_schema.
  if (where === "cookie") return fail("invalid_argument", `missing required cookie: ${f.wireName}`);
  return fail("invalid_argument", `${decodePrefix(where)}: missing field ${f.wireName}`);
}

function decodePrefix(where: string): string {
  if (where === "header") return "invalid header value";
  if (where === "path") return "invalid path parameter";
  if (where === "cookie") return "invalid cookie";
  return "unable to decode query string";
}

/**
 * The body's fields, or Encore's error under body.rs's prefix: the failing value's path (as
 * serde_path_to_error writes it, jsonschema/mod.rs `deserialize`), serde_json's message and position.
 */
function decodeBody(fields: FieldSchema[], body: Buffer): Record<string, unknown> {
  const prefix = "unable to decode request body";
  const text = body.toString("utf8");
  let parsed: unknown;
  if (body.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw fail("invalid_argument", `${prefix}: invalid JSON: ${(e as Error).message}`);
    }
  } else {
    // Encore hands the raw bytes to serde_json whenever there are body fields, even all-optional ones.
    throw fail("invalid_argument", `${prefix}: EOF while parsing a value at line 1 column 0`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw fail(
      "invalid_argument",
      `${prefix}: invalid type: ${describeValue(parsed)}, expected a JSON object${serdePosition(text, [], true)}`,
    );
  }
  try {
    return decodeFields(fields, parsed as Record<string, unknown>, [], "json");
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    throw fail("invalid_argument", `${prefix}: ${e.message}${serdePosition(text, e.keys, e.atOpening)}`);
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

/**
 * A Set-Cookie value as Encore writes it: the cookie crate's Display (0.18.1, fmt_parameters) of the
 * cookie runtimes/core/src/api/pvalue.rs builds. The value is not percent-encoded, the attributes come in
 * the crate's order, and SameSite=None or Partitioned adds Secure unless `secure` was given. npm's
 * `cookie` serialize percent-encodes and orders the attributes otherwise, so it is not used.
 */
function appendCookie(headers: HttpResponseParts["headers"], name: string, v: unknown): void {
  const c = (typeof v === "object" && v !== null && "value" in v ? v : { value: v }) as Record<string, unknown>;
  const given = (x: unknown): boolean => x !== undefined && x !== null;
  // A Date value is PValue::DateTime, written with to_rfc3339 (pvalue.rs Display), as in a header.
  const parts = [`${name}=${c.value instanceof Date ? encoreHeaderDate(c.value) : String(c.value)}`];
  if (c.httpOnly === true) parts.push("HttpOnly");
  if (given(c.sameSite)) parts.push(`SameSite=${String(c.sameSite)}`);
  if (c.partitioned === true) parts.push("Partitioned");
  if (c.secure === true || c.partitioned === true || (!given(c.secure) && c.sameSite === "None")) parts.push("Secure");
  if (given(c.path)) parts.push(`Path=${String(c.path)}`);
  if (given(c.domain)) parts.push(`Domain=${String(c.domain).replace(/^\./, "")}`);
  if (typeof c.maxAge === "number") parts.push(`Max-Age=${c.maxAge}`);
  if (c.expires instanceof Date) parts.push(`Expires=${c.expires.toUTCString()}`);
  const prev = headers["Set-Cookie"];
  // The line's UTF-8 bytes, as HeaderValue::from_str keeps them: node writes a header string as latin1,
  // so a non-Latin-1 character would make writeHead throw and "é" would go out as one byte, not two.
  const line = Buffer.from(parts.join("; "), "utf8").toString("latin1");
  headers["Set-Cookie"] = [...(prev === undefined ? [] : ([] as string[]).concat(prev)), line];
}
