// The API explorer's starting values: for each endpoint, a value for every required path, query,
// header and body field that its type and encore.dev/validate rules accept (optional ones are left
// out), so calling an endpoint as the explorer opens it is never refused for its own defaults.
import type { EndpointModel, FieldSchema, HttpMethod, TypeSchema, ValidationExpr } from "../../model/app-model";

/** Where a request field travels for a method (Encore's rule: path, then query for GET/HEAD/DELETE, else body). */
export function fieldPlace(f: FieldSchema, method: HttpMethod): "path" | "query" | "header" | "cookie" | "body" {
  if (f.location === "httpstatus") return "body";
  if (f.location !== "default") return f.location;
  return method === "GET" || method === "HEAD" || method === "DELETE" ? "query" : "body";
}

interface Rules {
  minLen?: number;
  maxLen?: number;
  minValue?: number;
  maxValue?: number;
  regexps: string[];
  startsWith?: string;
  endsWith?: string;
  email: boolean;
  url: boolean;
}

/** The rules every value must meet; of an `or`, its first branch (any one is enough). */
function collect(expr: ValidationExpr, into: Rules): Rules {
  if ("and" in expr) expr.and.forEach((e) => collect(e, into));
  else if ("or" in expr) collect(expr.or[0], into);
  else if (!("value" in expr)) into[expr.rule === "isEmail" ? "email" : "url"] = true;
  else if (expr.rule === "matchesRegexp") into.regexps.push(expr.value);
  else if (expr.rule === "startsWith" || expr.rule === "endsWith") into[expr.rule] = expr.value;
  else if (typeof expr.value === "number") into[expr.rule] = expr.value;
  return into;
}

// Not the walkthrough's ada@example.com: on a shared test database the explorer's sign-up would take it first.
const EMAIL = "explorer@example.com";
const URL_EXAMPLE = "https://example.com/";

/** Strings a field of this name plausibly holds, most fitting first. */
function stringCandidates(name: string, r: Rules): string[] {
  const day = new Date().toISOString().slice(0, 10);
  const byName = /email/i.test(name)
    ? [EMAIL]
    : /url$/i.test(name)
      ? [URL_EXAMPLE]
      : /host/i.test(name)
        ? ["example.com"]
        : /password/i.test(name)
          ? // A new password must differ from the current one (POST /auth/password refuses the same).
            [/^new/i.test(name) ? "new horse battery staple" : "correct horse battery"]
          : [];
  const byRule = r.email ? [EMAIL] : r.url ? [URL_EXAMPLE] : [];
  return [...byRule, ...byName, "example", day, "example-1", "1", "a", "A1", "x@example.com"];
}

/** A string meeting the rules (length padded or cut to fit), or "example" when none of the candidates does. */
function validString(name: string, r: Rules): string {
  const fit = (s: string): string => {
    let v = `${r.startsWith ?? ""}${s}${r.endsWith ?? ""}`;
    if (r.minLen !== undefined && v.length < r.minLen) v = v + "x".repeat(r.minLen - v.length);
    if (r.maxLen !== undefined && v.length > r.maxLen) v = v.slice(0, r.maxLen);
    return v;
  };
  for (const c of stringCandidates(name, r)) {
    const v = fit(c);
    if (r.regexps.every((re) => new RegExp(re).test(v))) return v;
  }
  return fit("example");
}

function validNumber(r: Rules): number {
  const lo = r.minValue ?? -Infinity;
  const hi = r.maxValue ?? Infinity;
  for (const n of [7, 1, 10, 100]) if (n >= lo && n <= hi) return n;
  return Number.isFinite(lo) ? Math.ceil(lo) : Math.floor(hi);
}

/** A value of type `t` that Encore's decoding and validation accept, for a field called `name`. */
export function exampleValue(t: TypeSchema, name = "", rules: Rules = { regexps: [], email: false, url: false }): unknown {
  switch (t.kind) {
    case "validated":
      return exampleValue(t.base, name, collect(t.expr, { ...rules, regexps: [...rules.regexps] }));
    case "string":
      return validString(name, rules);
    case "number":
    case "decimal":
      return validNumber(rules);
    case "bigint":
      return String(validNumber(rules));
    case "boolean":
      return false;
    case "date":
      // A day ahead: "expires at" fields refuse the past.
      return new Date(Date.now() + 86_400_000).toISOString();
    case "literal":
      return t.value;
    case "array": {
      const n = Math.max(rules.minLen ?? 0, 0);
      return Array.from({ length: n }, () => exampleValue(t.elem, name));
    }
    case "object":
      return Object.fromEntries(t.fields.filter((f) => !f.optional).map((f) => [f.wireName, exampleValue(f.type, f.wireName)]));
    case "map":
      return {};
    case "union": {
      const first = t.types.find((x) => x.kind !== "null") ?? t.types[0];
      return exampleValue(first, name, rules);
    }
    case "null":
      return null;
    default:
      return null;
  }
}

/** One path, query or header parameter of the explorer's form, with its starting value ("" when left out). */
export interface ParamForm {
  name: string;
  place: "path" | "query" | "header";
  optional: boolean;
  /** null for a raw endpoint's path segment, which has no schema. */
  type: TypeSchema | null;
  value: string;
}

/** The explorer's starting request for an endpoint and method. */
export interface CallForm {
  params: ParamForm[];
  /** The JSON body with its required fields filled (or its first field, when all are optional), or null when the method sends none. */
  body: Record<string, unknown> | null;
}

/** A value as it goes into a path, query string or header; an array's items comma-separated (the form sends them as repeated keys). */
function asText(v: unknown): string {
  return typeof v === "string" ? v : Array.isArray(v) ? v.map(asText).join(",") : JSON.stringify(v);
}

/** The path's `:name` and `*name` segments (a raw endpoint has no schema to name them). */
export function pathParams(path: string): string[] {
  return path
    .split("/")
    .filter((s) => s.startsWith(":") || s.startsWith("*"))
    .map((s) => s.slice(1));
}

export function callForm(ep: EndpointModel, method: HttpMethod): CallForm {
  const fields = ep.request?.fields ?? [];
  const params: ParamForm[] = pathParams(ep.path).map((name) => {
    const f = fields.find((x) => x.location === "path" && x.name === name);
    return { name, place: "path", optional: false, type: f?.type ?? null, value: asText(f ? exampleValue(f.type, name) : "example") };
  });
  const body: [string, unknown][] = [];
  let hasBody = ep.raw && method !== "GET" && method !== "HEAD";
  const bodyFields = fields.filter((f) => fieldPlace(f, method) === "body");
  // A body of optional fields only (a PATCH) starts with the first one: sent empty it would change nothing.
  const seeded = bodyFields.some((f) => !f.optional) ? bodyFields.filter((f) => !f.optional) : bodyFields.slice(0, 1);
  for (const f of seeded) body.push([f.wireName, exampleValue(f.type, f.wireName)]);
  for (const f of fields) {
    const place = fieldPlace(f, method);
    if (place === "path" || place === "cookie") continue;
    if (place === "body") {
      hasBody = true;
      continue;
    }
    params.push({
      name: f.wireName,
      place,
      optional: f.optional,
      type: f.type,
      value: f.optional ? "" : asText(exampleValue(f.type, f.wireName)),
    });
  }
  return { params, body: hasBody ? Object.fromEntries(body) : null };
}
