// The rules a link's fields follow, each saying what is wrong in words that start with the field's name.
// Imports nothing from Encore, so the url service's checks and the web app's link form
// (web/ui/link-form.tsx) apply the very same rules.
import { isReserved } from "./reserved";
import { UTM_FIELDS, type UtmValues } from "./utm-merge";

/** What an alias may be. Generated codes fit it too, so it is the shape of any link code. */
export const ALIAS_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;

/** One tag as given: 1 to 32 letters, digits, '-' or '_'. */
export const TAG_SHAPE = /^[A-Za-z0-9_-]{1,32}$/;

/** How many tags one link may carry. */
export const MAX_TAGS = 10;

/** The shortest and longest link password, in characters. */
export const MIN_LINK_PASSWORD = 8;
export const MAX_LINK_PASSWORD = 128;

/** The largest maxClicks accepted. */
export const MAX_CLICK_LIMIT = 1_000_000_000;

/** How far ahead an expiry may be set. */
export const MAX_EXPIRY_YEARS = 5;

/** The longest target accepted, in UTF-8 bytes (what browsers and proxies reliably pass on). */
export const MAX_TARGET_BYTES = 2048;

/** The most characters of one UTM value. */
export const MAX_UTM_VALUE = 100;

/** aliasProblem says why `alias` cannot name a link, or null when it can. */
export function aliasProblem(alias: string): string | null {
  if (!ALIAS_SHAPE.test(alias)) return "alias must be 3 to 64 characters, each a letter, a digit, '_' or '-'";
  if (isReserved(alias)) return `alias "${alias}" is reserved`;
  return null;
}

/** tagProblem says why `tag` is not a tag, naming `field`, or null when it is one. */
export function tagProblem(tag: string, field = "tags"): string | null {
  return TAG_SHAPE.test(tag) ? null : `${field}: "${tag}" is not a tag: each must be 1 to 32 letters, digits, '-' or '_'`;
}

/** tagsProblem checks every tag and how many distinct ones there are (tags are stored lower-case). */
export function tagsProblem(tags: readonly string[]): string | null {
  for (const tag of tags) {
    const problem = tagProblem(tag);
    if (problem !== null) return problem;
  }
  return new Set(tags.map((t) => t.toLowerCase())).size > MAX_TAGS ? `tags: at most ${MAX_TAGS} tags per link` : null;
}

/** linkPasswordProblem counts characters, as its message says (the request types bound UTF-8 bytes). */
export function linkPasswordProblem(password: string): string | null {
  const length = [...password].length;
  return length < MIN_LINK_PASSWORD || length > MAX_LINK_PASSWORD
    ? `password must be ${MIN_LINK_PASSWORD} to ${MAX_LINK_PASSWORD} characters`
    : null;
}

/** maxClicksProblem wants a whole number from 1 to 10^9. */
export function maxClicksProblem(maxClicks: number): string | null {
  return Number.isInteger(maxClicks) && maxClicks >= 1 && maxClicks <= MAX_CLICK_LIMIT
    ? null
    : `maxClicks must be a whole number from 1 to ${MAX_CLICK_LIMIT.toLocaleString("en-US")}`;
}

/** expiryProblem wants a time in the future and at most 5 years ahead of `now`. */
export function expiryProblem(expiresAt: Date, now: Date = new Date()): string | null {
  if (Number.isNaN(expiresAt.getTime())) return "expiresAt is not a valid time";
  if (expiresAt.getTime() <= now.getTime()) return "expiresAt must be in the future";
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_EXPIRY_YEARS);
  return expiresAt.getTime() > latest.getTime() ? `expiresAt must be at most ${MAX_EXPIRY_YEARS} years ahead` : null;
}

/** utmValueProblem names the first campaign value longer than 100 characters, or null when every one fits. */
export function utmValueProblem(utm: UtmValues): string | null {
  const long = UTM_FIELDS.find((f) => [...(utm[f] ?? "")].length > MAX_UTM_VALUE);
  return long === undefined ? null : `utm.${long} must be at most ${MAX_UTM_VALUE} characters`;
}

// Any base makes a relative reference parse, which tells "relative" apart from "not a URL".
const PROBE_BASE = "http://relative.invalid/";

/**
 * Hostnames that reach this machine, as the WHATWG parser serializes them (it already turns
 * 2130706433 or 0x7f.1 into 127.0.0.1 and [0:0::1] into [::1]): *.localhost (RFC 6761), 127.0.0.0/8,
 * 0.0.0.0/8, [::1], [::], and IPv4-mapped IPv6 of those ([::ffff:7f00:1] is 127.0.0.1).
 */
const LOOPBACK =
  /^((.+\.)?localhost|127(\.\d{1,3}){3}|0(\.\d{1,3}){3}|\[::1?\]|\[::ffff:(7f[0-9a-f]{2}|0{0,2}[0-9a-f]{1,2}):[0-9a-f]{1,4}\])$/;

/** A target as checked: its normalized form, or why it cannot be shortened. */
export type TargetCheck = { href: string; problem?: undefined } | { href?: undefined; problem: string };

/**
 * checkTarget normalizes `raw` (WHATWG URL serialization: ASCII only, so it is safe in a Location
 * header) or says what is wrong with it, naming `field`. `ownHosts` are the hostnames of this
 * shortener; a link to them would redirect back into it.
 */
export function checkTarget(raw: string, ownHosts: readonly string[], field = "url"): TargetCheck {
  const text = raw.trim();
  if (text === "") return { problem: `${field} is empty` };
  const tooLong = { problem: `${field} is longer than ${MAX_TARGET_BYTES} bytes` };
  if (byteLength(text) > MAX_TARGET_BYTES) return tooLong;
  if (!URL.canParse(text)) {
    const relative = !/\s/.test(text) && URL.canParse(text, PROBE_BASE);
    return { problem: relative ? `${field} must be absolute, starting with http:// or https://` : `${field} is not a valid URL` };
  }
  const url = new URL(text);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { problem: `${field} scheme "${url.protocol}" is not allowed: only http and https links can be shortened` };
  }
  if (url.username !== "" || url.password !== "") return { problem: `${field} must not contain a username or password` };
  if (isOwnHost(url.hostname, ownHosts)) return { problem: `${field} points back at this URL shortener` };
  // Percent-encoding can lengthen the text, so the stored form is measured too.
  return byteLength(url.href) > MAX_TARGET_BYTES ? tooLong : { href: url.href };
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

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
