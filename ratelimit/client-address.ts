// The address a request came from, as rate limits count it. Encore's gateway appends the address of
// the connection it accepted to X-Forwarded-For before the handler sees the request (runtimes/core/
// src/api/gateway/mod.rs), so the last entry is the socket's peer; entries before it were written by
// whoever sent the request and count only when the operator trusts that many proxies in front.
import ipaddr from "ipaddr.js";
import { currentRequest } from "encore.dev";
import { trustedProxyHops } from "./settings";

/** The caller's address (an IPv6 caller's /64 network), or null outside an HTTP request. */
export function clientAddress(): string | null {
  const req = currentRequest();
  if (req?.type !== "api-call") return null;
  const hop = clientHop(req.headers["x-forwarded-for"]);
  return hop === null ? null : addressKey(hop);
}

/**
 * The X-Forwarded-For entry that names the client: the one TRUSTED_PROXY_HOPS entries before the
 * gateway's own (the last). Raw endpoints pass their request's header; others use clientAddress.
 */
export function clientHop(forwardedFor: string | string[] | undefined): string | null {
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  if (hops.length === 0) return null;
  return hops[Math.max(0, hops.length - 1 - trustedProxyHops())];
}

/**
 * A dotted-quad IPv4 address as a gateway writes one. Nearly every hop is one, and this test costs a
 * fortieth of parsing it (ipaddr.js, about 2 µs), which a click would otherwise pay twice.
 */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** parseHop reads the address of an X-Forwarded-For entry (brackets and port removed, IPv4-mapped as IPv4), or null. */
function parseHop(hop: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = hop.replace(/^\[(.*)\](:\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  return ipaddr.isValid(text) ? ipaddr.process(text) : null;
}

/** hopAddress is the IP address an X-Forwarded-For entry names, as text, or null when it names none. */
export function hopAddress(hop: string): string | null {
  return IPV4.test(hop) ? hop : (parseHop(hop)?.toString() ?? null);
}

/**
 * The rate-limit identity of an address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network,
 * since one subscriber usually holds a whole /64. Anything else a proxy wrote counts as its own text.
 */
export function addressKey(hop: string): string {
  if (IPV4.test(hop)) return hop;
  const parsed = parseHop(hop);
  if (parsed === null) return hop.slice(0, 64);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
