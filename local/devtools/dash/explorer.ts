// The API explorer's call: a real HTTP request to the app's gateway (so routing, auth, validation and
// tracing are what any client gets), answered with the response and the X-Encore-Trace-Id it carried.
import { apiBaseUrl } from "../../runtime/core/context";

export interface ExplorerCall {
  method: string;
  /** Path with any query string, e.g. "/shorten" or "/analytics/daily?days=7". */
  path: string;
  /** JSON text of the body, for methods that take one. */
  body?: string;
  /** A bearer token, sent as Authorization: Bearer <token>. */
  token?: string;
  headers?: Record<string, string>;
}

export interface ExplorerResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  traceId: string | null;
  durationMs: number;
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** Checks an explorer request; returns what is wrong, or null. */
export function explorerCallProblem(c: Partial<ExplorerCall>): string | null {
  if (typeof c.method !== "string" || !METHODS.has(c.method.toUpperCase())) return `method must be one of ${[...METHODS].join(", ")}`;
  if (typeof c.path !== "string" || !c.path.startsWith("/")) return "path must start with /";
  if (c.body !== undefined && typeof c.body !== "string") return "body must be a string of JSON";
  if (c.token !== undefined && typeof c.token !== "string") return "token must be a string";
  if (c.headers !== undefined && (typeof c.headers !== "object" || Object.values(c.headers).some((v) => typeof v !== "string"))) {
    return "headers must map names to strings";
  }
  return null;
}

export async function callEndpoint(c: ExplorerCall): Promise<ExplorerResult> {
  const method = c.method.toUpperCase();
  const headers: Record<string, string> = { ...c.headers };
  const hasBody = c.body !== undefined && c.body !== "" && method !== "GET" && method !== "HEAD";
  if (hasBody && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) headers["Content-Type"] = "application/json";
  if (c.token) headers.Authorization = `Bearer ${c.token}`;
  const started = performance.now();
  const res = await fetch(apiBaseUrl() + c.path, { method, headers, body: hasBody ? c.body : undefined, redirect: "manual" });
  const body = await res.text();
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body,
    traceId: res.headers.get("x-encore-trace-id"),
    durationMs: performance.now() - started,
  };
}
