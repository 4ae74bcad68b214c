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
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  if (hops.length === 0) return null;
  return addressKey(hops[Math.max(0, hops.length - 1 - trustedProxyHops())]);
}

/**
 * The rate-limit identity of an address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network,
 * since one subscriber usually holds a whole /64. Anything else a proxy wrote counts as its own text.
 */
export function addressKey(address: string): string {
  const text = address.replace(/^\[(.*)\](:\d+)?$/, "$1").replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, "$1");
  if (!ipaddr.isValid(text)) return text.slice(0, 64);
  const parsed = ipaddr.process(text);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(":")}::/64`;
}
