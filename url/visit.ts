// What a click records about its visitor: the referring host and the kind of device, nothing more.
import Bowser from "bowser";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";

/**
 * DeviceKind is a device class clicks are counted under. Spelled as a union of literals, not derived
 * from DEVICE_KINDS: it is part of a response schema, and Encore's type resolver cannot index the type
 * of an array literal (tsparser/src/parser/types/type_resolve.rs, `array_lit` and `type_index`).
 */
export type DeviceKind = "desktop" | "mobile" | "tablet" | "bot";

/** DEVICE_KINDS lists every DeviceKind, in the order the click history reports them. */
export const DEVICE_KINDS: readonly DeviceKind[] = ["desktop", "mobile", "tablet", "bot"];

/** Visit is what one click stores besides its link: no IP address, no full referrer URL. */
export interface Visit {
  /** The Referer's host ("news.example.com"), or "" when there is none or it has no host. */
  referrerHost: string;
  device: DeviceKind;
}

/** The longest DNS name; a longer "host" is not one, and is not stored. */
const MAX_HOST_LENGTH = 253;

/**
 * describeVisit reads a click's Referer and User-Agent headers. The referrer is cut down to its host
 * (the path and query can hold personal data); the device comes from maintained libraries: isbot for
 * crawlers and HTTP clients, bowser for phones and tablets.
 */
export function describeVisit(referer: string | undefined, userAgent: string | undefined): Visit {
  return { referrerHost: referrerHost(referer), device: deviceKind(userAgent) };
}

/** referrerHost is the lowercase host of a Referer URL, or "" for none, a relative or a malformed one. */
export function referrerHost(referer: string | undefined): string {
  if (referer === undefined || !URL.canParse(referer)) return "";
  const host = new URL(referer).hostname.toLowerCase().replace(/\.$/, "");
  return host.length <= MAX_HOST_LENGTH ? host : "";
}

/**
 * Device kinds of recent User-Agents: visitors send few distinct ones, and classifying one with isbot
 * and bowser takes 6-12 µs, more than the rest of the handler's own work on a click. Browsers' are a
 * few hundred characters; longer ones are classified every time, so the cache stays under 256 K characters.
 */
const recentDevices = new LRUCache<string, DeviceKind>({
  max: 1000,
  maxSize: 256 * 1024,
  maxEntrySize: 1024,
  sizeCalculation: (_kind, userAgent) => userAgent.length,
});

/**
 * deviceKind classifies a User-Agent. No User-Agent at all counts as a bot: every browser sends one.
 * Anything a browser sends that is neither a phone nor a tablet (desktops, TVs, consoles) is desktop.
 */
export function deviceKind(userAgent: string | undefined): DeviceKind {
  if (userAgent === undefined) return "bot";
  let kind = recentDevices.get(userAgent);
  if (kind === undefined) {
    kind = classify(userAgent);
    recentDevices.set(userAgent, kind);
  }
  return kind;
}

function classify(userAgent: string): DeviceKind {
  if (userAgent.trim() === "" || isbot(userAgent)) return "bot";
  switch (Bowser.getParser(userAgent, true).getPlatformType(true)) {
    case "mobile":
      return "mobile";
    case "tablet":
      return "tablet";
    case "bot":
      return "bot";
    default:
      return "desktop";
  }
}
