// What a click keeps of its User-Agent: the kind of device and the browser's and system's families,
// never the string itself.
import Bowser from "bowser";
import { isbot } from "isbot";
import { LRUCache } from "lru-cache";
import type { DeviceKind } from "./click-report-types";

/** Agent is a User-Agent reduced to families: browser and os are "" when bowser names none it knows. */
export interface Agent {
  device: DeviceKind;
  /** A name from bowser's list ("Chrome", "Firefox", "Googlebot", ...). */
  browser: string;
  /** A name from bowser's list ("Windows", "iOS", "Android", ...). */
  os: string;
}

/**
 * The names bowser gives browsers and systems it recognises. For any other User-Agent it falls back to
 * the text before the first slash, which would store part of the string and let visitors invent values.
 */
const BROWSERS = new Set(Object.values(Bowser.BROWSER_MAP).filter((name) => name !== "Generic"));
const SYSTEMS = new Set(Object.values(Bowser.OS_MAP));

/** No User-Agent at all: every browser sends one. */
const NO_AGENT: Agent = Object.freeze({ device: "bot", browser: "", os: "" });

/**
 * Agents of recent User-Agents: visitors send few distinct ones, and classifying one with isbot and
 * bowser takes 6-12 µs, more than the rest of the handler's own work on a click. Browsers' are a few
 * hundred characters; longer ones are classified every time, so the cache stays under 256 K characters.
 */
const recentAgents = new LRUCache<string, Agent>({
  max: 1000,
  maxSize: 256 * 1024,
  maxEntrySize: 1024,
  sizeCalculation: (_agent, userAgent) => userAgent.length,
});

/** describeAgent classifies a User-Agent (frozen: the cache shares the object between clicks). */
export function describeAgent(userAgent: string | undefined): Agent {
  if (userAgent === undefined) return NO_AGENT;
  let agent = recentAgents.get(userAgent);
  if (agent === undefined) {
    agent = classify(userAgent);
    recentAgents.set(userAgent, agent);
  }
  return agent;
}

/** deviceKind is the device class of a User-Agent. */
export function deviceKind(userAgent: string | undefined): DeviceKind {
  return describeAgent(userAgent).device;
}

/**
 * classify reads a User-Agent once. An empty one, and any isbot knows (crawlers, HTTP clients), is a
 * bot; bowser tells phones and tablets; anything else a browser sends (desktops, TVs, consoles) is desktop.
 */
function classify(userAgent: string): Agent {
  if (userAgent.trim() === "") return NO_AGENT;
  const parser = Bowser.getParser(userAgent, true);
  const browser = known(BROWSERS, parser.getBrowserName());
  const os = known(SYSTEMS, parser.getOSName());
  const device = isbot(userAgent) ? "bot" : platformKind(parser.getPlatformType(true));
  return Object.freeze({ device, browser, os });
}

function known(names: Set<string>, name: string): string {
  return names.has(name) ? name : "";
}

function platformKind(platform: string): DeviceKind {
  switch (platform) {
    case "mobile":
    case "tablet":
    case "bot":
      return platform;
    default:
      return "desktop";
  }
}
