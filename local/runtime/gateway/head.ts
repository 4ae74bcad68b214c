// The gateway's own headers (CORS, the trace id) and a handler's, handed to writeHead in one go:
// node:http validates a header once when writeHead gets it alone, but twice when setHeader came first.
import type http from "node:http";

/** Headers the gateway adds to a routed answer, in the order it adds them. */
export type GatewayHead = Record<string, string>;

/**
 * `head` with `headers` laid over it, exactly as `setHeader` for each of `head` and then
 * `writeHead(status, headers)` leave them: names compare in any case, and a later one takes an earlier
 * one's place with its own spelling and value (node's OutgoingMessage keys headers by lower-case name).
 */
export function withGatewayHead(head: GatewayHead, headers: http.OutgoingHttpHeaders): http.OutgoingHttpHeaders {
  const byName = new Map<string, [string, http.OutgoingHttpHeader | undefined]>();
  for (const name in head) byName.set(name.toLowerCase(), [name, head[name]]);
  for (const name in headers) if (name) byName.set(name.toLowerCase(), [name, headers[name]]);
  const out: http.OutgoingHttpHeaders = {};
  for (const [name, value] of byName.values()) out[name] = value;
  return out;
}

/** Sets `head` on `res` for paths that build their answer with setHeader themselves (static files, raw arrays). */
export function setGatewayHead(res: http.ServerResponse, head: GatewayHead): void {
  for (const name in head) res.setHeader(name, head[name]);
}
