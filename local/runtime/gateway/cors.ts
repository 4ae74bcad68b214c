// The gateway's CORS headers, as Encore's runtime computes them (runtimes/core/src/api/cors/mod.rs and
// cors_headers_config/): under `encore run` every origin is allowed with and without credentials
// (cli/daemon/run/runtime_config2.go); self-hosted and on Encore Cloud the origins come from encore.app's
// global_cors (runtimes/core/src/infracfg.rs), which LOCAL_CORS=production selects here.
import type http from "node:http";
import type { AppModel } from "../../model/app-model";
import type { GlobalCors } from "../../compiler/base/appfile";

/** Request headers every gateway allows (ALWAYS_ALLOWED_HEADERS). */
const ALWAYS_ALLOWED = [
  "accept",
  "authorization",
  "content-type",
  "origin",
  "user-agent",
  "x-correlation-id",
  "x-request-id",
  "x-requested-with",
];
/** Response headers every gateway exposes (ALWAYS_EXPOSED_HEADERS). */
const ALWAYS_EXPOSED = ["x-request-id", "x-correlation-id", "x-encore-trace-id"];
/** The Vary header the CORS layer adds to every answer (vary.rs: the preflight request headers). */
const VARY = "origin, access-control-request-method, access-control-request-headers";

/** "*" matches every origin; "https://*.example.com" one with at least one character in place of "*". */
type OriginSet = "all" | string[];

function allows(set: OriginSet, origin: string): boolean {
  if (set === "all") return true;
  const o = origin.toLowerCase();
  return set.some((pattern) => {
    const star = pattern.indexOf("*");
    if (star < 0) return o === pattern;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    return o.length > prefix.length + suffix.length && o.startsWith(prefix) && o.endsWith(suffix);
  });
}

function originSet(list: string[] | undefined, absent: OriginSet): OriginSet {
  if (list === undefined) return absent;
  return list.includes("*") ? "all" : list;
}

/** Encore counts Authorization or a cookie as credentials, or a preflight announcing either. */
function carriesCredentials(req: http.IncomingMessage): boolean {
  if (req.headers.authorization !== undefined || req.headers.cookie !== undefined) return true;
  if (req.method !== "OPTIONS") return false;
  const announced = req.headers["access-control-request-headers"] ?? "";
  return announced.split(",").some((h) => ["authorization", "cookie"].includes(h.trim()));
}

/** Which CORS rules apply: `encore run`'s, or the deployed app's from global_cors. */
export type CorsMode = "local" | "production";

/** The mode LOCAL_CORS selects (unset: `encore run`'s). */
export function corsModeFromEnv(value = process.env.LOCAL_CORS): CorsMode {
  if (value === undefined || value === "" || value === "local") return "local";
  if (value === "production") return "production";
  throw new Error(
    `LOCAL_CORS must be "production" (the rules of encore.app's global_cors) or unset (encore run's), not ${JSON.stringify(value)}`,
  );
}

/** The headers of Header<> fields the gateway adds to its lists (MetaHeaders::from_schema). */
function schemaHeaders(model: AppModel): { allow: string[]; expose: string[] } {
  const allow = new Set<string>();
  const expose = new Set<string>();
  for (const ep of model.endpoints.filter((e) => e.expose)) {
    for (const f of ep.request?.fields ?? []) if (f.location === "header") allow.add(f.wireName.toLowerCase());
    for (const f of ep.response?.fields ?? []) if (f.location === "header") expose.add(f.wireName.toLowerCase());
  }
  for (const f of model.authHandler?.params.fields ?? []) if (f.location === "header") allow.add(f.wireName.toLowerCase());
  return { allow: [...allow].sort(), expose: [...expose].sort() };
}

/** The CORS headers of one gateway, computed once at start. */
export class CorsPolicy {
  private readonly withCredentials: OriginSet;
  private readonly withoutCredentials: OriginSet;
  /** null: mirror the preflight's Access-Control-Request-Headers (global_cors.allow_headers has "*"). */
  private readonly allowHeaders: string | null;
  private readonly exposeHeaders: string;

  constructor(model: AppModel, cors: GlobalCors, mode: CorsMode) {
    // encore run allows every origin either way; deployed, credentialed origins must be listed.
    this.withCredentials = mode === "local" ? "all" : originSet(cors.allow_origins_with_credentials, []);
    this.withoutCredentials = mode === "local" ? "all" : originSet(cors.allow_origins_without_credentials, "all");
    // Header names are case-insensitive; Encore's HeaderName lowercases them.
    const extraAllowed = (cors.allow_headers ?? []).map((h) => h.toLowerCase());
    const schema = schemaHeaders(model);
    this.allowHeaders = extraAllowed.includes("*") ? null : [...extraAllowed, ...ALWAYS_ALLOWED, ...schema.allow].join(",");
    const extraExposed = (cors.expose_headers ?? []).map((h) => h.toLowerCase());
    this.exposeHeaders = [...extraExposed, ...ALWAYS_EXPOSED, ...schema.expose].join(",");
  }

  /** The headers for an answer to `req`: a preflight's for OPTIONS, else the ones on every response. */
  headers(req: http.IncomingMessage): Record<string, string> {
    const out: Record<string, string> = { "Access-Control-Allow-Credentials": "true", Vary: VARY };
    if (req.headers["access-control-request-private-network"] === "true") out["Access-Control-Allow-Private-Network"] = "true";
    const origin = req.headers.origin;
    if (origin !== undefined && allows(carriesCredentials(req) ? this.withCredentials : this.withoutCredentials, origin)) {
      out["Access-Control-Allow-Origin"] = origin;
    }
    if (req.method === "OPTIONS") {
      const method = req.headers["access-control-request-method"];
      if (method !== undefined) out["Access-Control-Allow-Methods"] = method;
      const allowHeaders = this.allowHeaders ?? req.headers["access-control-request-headers"];
      if (allowHeaders !== undefined) out["Access-Control-Allow-Headers"] = allowHeaders;
    } else {
      out["Access-Control-Expose-Headers"] = this.exposeHeaders;
    }
    return out;
  }
}
