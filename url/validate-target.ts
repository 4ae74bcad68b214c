// Which targets may be shortened; pure so every refusal can be unit-tested.
import { APIError } from "encore.dev/api";

/** MAX_TARGET_BYTES is the longest target accepted, in UTF-8 bytes (what browsers and proxies reliably pass on). */
export const MAX_TARGET_BYTES = 2048;

// Any base makes a relative reference parse, which tells "relative" apart from "not a URL".
const PROBE_BASE = "http://relative.invalid/";

/**
 * Hostnames that reach this machine, as the WHATWG parser serializes them (it already turns
 * 2130706433 or 0x7f.1 into 127.0.0.1 and [0:0::1] into [::1]): *.localhost (RFC 6761), 127.0.0.0/8,
 * 0.0.0.0/8, [::1], [::], and IPv4-mapped IPv6 of those ([::ffff:7f00:1] is 127.0.0.1).
 */
const LOOPBACK =
  /^((.+\.)?localhost|127(\.\d{1,3}){3}|0(\.\d{1,3}){3}|\[::1?\]|\[::ffff:(7f[0-9a-f]{2}|0{0,2}[0-9a-f]{1,2}):[0-9a-f]{1,4}\])$/;

/**
 * validateTarget returns the normalized form of `raw` (WHATWG URL serialization: ASCII only, so it is
 * safe in a Location header) or throws invalid_argument naming the problem. `ownHosts` are the
 * hostnames of this shortener; a link to them would redirect back into it. Messages name `field`.
 */
export function validateTarget(raw: string, ownHosts: readonly string[], field = "url"): string {
  const text = raw.trim();
  if (text === "") throw invalid(`${field} is empty`);
  if (tooLong(text)) throw invalid(`${field} is longer than ${MAX_TARGET_BYTES} bytes`);

  const url = parseAbsolute(text, field);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid(`${field} scheme "${url.protocol}" is not allowed: only http and https links can be shortened`);
  }
  if (url.username !== "" || url.password !== "") {
    throw invalid(`${field} must not contain a username or password`);
  }
  if (isOwnHost(url.hostname, ownHosts)) throw invalid(`${field} points back at this URL shortener`);

  // Percent-encoding can lengthen the text, so the stored form is measured too.
  if (tooLong(url.href)) throw invalid(`${field} is longer than ${MAX_TARGET_BYTES} bytes`);
  return url.href;
}

function parseAbsolute(text: string, field: string): URL {
  if (URL.canParse(text)) return new URL(text);
  if (!/\s/.test(text) && URL.canParse(text, PROBE_BASE)) {
    throw invalid(`${field} must be absolute, starting with http:// or https://`);
  }
  throw invalid(`${field} is not a valid URL`);
}

function isOwnHost(hostname: string, ownHosts: readonly string[]): boolean {
  const host = normalizeHost(hostname);
  return ownHosts.some((own) => {
    const ownHost = normalizeHost(own);
    // On a loopback address every loopback name reaches the shortener.
    return ownHost === host || (LOOPBACK.test(ownHost) && LOOPBACK.test(host));
  });
}

// "Example.com." and "example.com" are the same host.
function normalizeHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, "");
}

function tooLong(text: string): boolean {
  return Buffer.byteLength(text, "utf8") > MAX_TARGET_BYTES;
}

function invalid(message: string): APIError {
  return APIError.invalidArgument(message);
}
