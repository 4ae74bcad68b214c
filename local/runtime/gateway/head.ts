// The gateway's own headers (CORS, the trace id) and a handler's, handed to writeHead in one go:
// node:http validates a header once when writeHead gets it alone, but twice when setHeader came first.
import type http from "node:http";

/** Headers the gateway adds to a routed answer, in the order it adds them. */
export type GatewayHead = Record<string, string>;

/** The one gateway header a handler's own replaces (gateway/mod.rs maybe_add_trace_id_header). */
const TRACE_ID = "x-encore-trace-id";

/**
 * The answer's headers as Encore's gateway leaves them (runtimes/core/src/api/gateway/mod.rs
 * response_filter): the handler's first, where a later spelling of a name takes an earlier one's place
 * as node's setHeader does; then each CORS header appended, beside a handler's header of the same name
 * rather than instead of it (cors/cors_headers_config/mod.rs append_response_header); then the trace
 * id, unless the handler set its own.
 */
export function withGatewayHead(head: GatewayHead, headers: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  const spelled = new Map<string, string>();
  for (const name in headers) {
    if (!name) continue;
    const lower = name.toLowerCase();
    const earlier = spelled.get(lower);
    if (earlier !== undefined) delete out[earlier];
    spelled.set(lower, name);
    out[name] = headers[name];
  }
  for (const name in head) {
    const lower = name.toLowerCase();
    const own = spelled.get(lower);
    if (own === undefined) out[name] = head[name];
    else if (lower !== TRACE_ID) out[own] = [...valuesOf(out[own]), head[name]];
  }
  return out;
}

/** A header's value as the list of lines node writes for it. */
function valuesOf(value: http.OutgoingHttpHeader | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [String(value)];
}

/** Sets `head` on `res` for paths that build their answer with setHeader themselves (static files, raw arrays). */
export function setGatewayHead(res: http.ServerResponse, head: GatewayHead): void {
  for (const name in head) res.setHeader(name, head[name]);
}
