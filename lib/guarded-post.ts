// Server-side requests to user-given URLs (webhooks), SSRF-checked at the moment they run: the URL is
// http(s) only, every address its host resolves to is checked when the connection opens (by
// request-filtering-agent, so a name that changes its answer between a check and the connect cannot
// slip through), a literal address is checked before any connect, and redirects are never followed.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent, type RequestFilteringAgentOptions } from "request-filtering-agent";

/** Cloud metadata services: refused even when private addresses are allowed for development. */
const METADATA_ADDRESSES = ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"];

/** The most of a response body read (and thrown away): a receiver cannot make us buffer more. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** OutboundPolicy says which addresses a request may reach. */
export interface OutboundPolicy {
  /** Loopback, private, link-local and CGNAT addresses too: for development and tests only. */
  allowPrivate: boolean;
  /** Extra addresses allowed whatever else is refused (tests serving a "public" receiver on 127.0.0.2). */
  allowAddresses?: string[];
  /** Resolves names instead of the system resolver (tests: a name that resolves to a private address). */
  lookup?: LookupFunction;
}

/** OutboundResult is what became of one request: the receiver's status, or why there is none. */
export type OutboundResult = { status: number; durationMs: number } | { error: string; durationMs: number };

/** refuseOutboundUrl returns why `raw` may never be fetched (scheme, credentials), or null when it may be tried. */
export function refuseOutboundUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not an absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "only http and https URLs are allowed";
  if (url.username !== "" || url.password !== "") return "the URL must not contain a user name or password";
  if (url.hostname === "") return "the URL has no host";
  return null;
}

/** The agents for one policy; kept per policy so connections to a receiver are reused. */
const agents = new Map<string, { http: http.Agent; https: https.Agent }>();

function agentsFor(policy: OutboundPolicy): { http: http.Agent; https: https.Agent } {
  const key = JSON.stringify([policy.allowPrivate, policy.allowAddresses ?? []]);
  let pair = agents.get(key);
  if (pair === undefined || policy.lookup !== undefined) {
    const options: RequestFilteringAgentOptions & http.AgentOptions = {
      allowPrivateIPAddress: policy.allowPrivate,
      allowMetaIPAddress: false,
      allowIPAddressList: policy.allowAddresses ?? [],
      denyIPAddressList: METADATA_ADDRESSES,
      keepAlive: true,
    };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    // A test's own resolver gets agents of its own, never shared with real deliveries.
    if (policy.lookup === undefined) agents.set(key, pair);
  }
  return pair;
}

/**
 * postGuarded POSTs `body` to `target` and settles with the receiver's status, or an error saying why
 * there is none: a refused address, a refused URL, a timeout, a redirect (never followed), a reset.
 * It never throws. The whole exchange, body included, must finish within `timeoutMs`.
 */
export function postGuarded(
  target: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<OutboundResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = refuseOutboundUrl(target);
  if (refused !== null) return Promise.resolve({ error: refused, durationMs: 0 });
  const url = new URL(target);
  const pair = agentsFor(policy);
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const settle = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      {
        protocol: url.protocol,
        // URL keeps an IPv6 literal in brackets; the agent checks the bare address.
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
        agent: url.protocol === "https:" ? pair.https : pair.http,
        lookup: policy.lookup,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on("close", () => {
          if (status >= 300 && status < 400) {
            const where = res.headers.location === undefined ? "" : ` to ${res.headers.location}`;
            settle({ error: `redirect (${status}${where}) not followed`, durationMs: elapsed() });
          } else settle({ status, durationMs: elapsed() });
        });
      },
    );
    const timer = setTimeout(() => {
      settle({ error: `no answer within ${timeoutMs / 1000} s`, durationMs: elapsed() });
      req.destroy();
    }, timeoutMs);
    req.on("error", (err) => settle({ error: describeError(err), durationMs: elapsed() }));
    req.end(body);
  });
}

/** A short reason for a failed request; a refused address says which, never a stack. */
function describeError(err: Error): string {
  const refused = /DNS lookup (\S+)\(.*is not allowed/.exec(err.message);
  if (refused !== null) return `address ${refused[1]} is not allowed (private, loopback, link-local, reserved or metadata)`;
  const code = (err as NodeJS.ErrnoException).code;
  return code === undefined ? err.message : `${code}: ${err.message}`;
}

/**
 * literalAddressRefused tells whether the URL's host is an address written out that the policy would
 * refuse at delivery: a check to answer early when the URL is saved, never a substitute for the one
 * made when the request runs (a name's addresses can change).
 */
export function literalAddressRefused(raw: string, policy: OutboundPolicy): boolean {
  const host = new URL(raw).hostname.replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.parse(host);
  const range = address.range();
  if (range === "unspecified" || METADATA_ADDRESSES.includes(address.toString())) return true;
  if (policy.allowAddresses?.includes(address.toString())) return false;
  return !policy.allowPrivate && range !== "unicast";
}
