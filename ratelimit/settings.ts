// The rate limits an operator can set, from environment variables read on each use (so a test can
// change them), with defaults that stop abuse without getting in a person's way.
import log from "encore.dev/log";

/** A limit: at most `max` requests per fixed window of `windowMs`. */
export interface WindowLimit {
  max: number;
  windowMs: number;
}

/** Each limit, its environment variable and its default ("<max>/<window>", or "off"). */
export const LIMITS = {
  signup: { env: "RATE_LIMIT_SIGNUP", fallback: "20/1h" },
  login: { env: "RATE_LIMIT_LOGIN", fallback: "30/15m" },
  shorten: { env: "RATE_LIMIT_SHORTEN", fallback: "120/1m" },
  "shorten-per-user": { env: "RATE_LIMIT_SHORTEN_PER_USER", fallback: "60/1m" },
  unlock: { env: "RATE_LIMIT_UNLOCK", fallback: "10/10m" },
  import: { env: "RATE_LIMIT_IMPORT", fallback: "10/1h" },
  report: { env: "RATE_LIMIT_REPORT", fallback: "10/1h" },
} as const;

export type LimitName = keyof typeof LIMITS;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** Parses "<max>/<window>" (window: a whole number of s, m or h) or "off"; undefined when malformed. */
export function parseLimit(value: string): WindowLimit | null | undefined {
  const text = value.trim();
  if (text === "off") return null;
  const m = /^(\d+)\s*\/\s*(\d+)\s*([smh])$/.exec(text);
  if (m === null) return undefined;
  const limit = { max: Number(m[1]), windowMs: Number(m[2]) * UNIT_MS[m[3]] };
  return limit.max > 0 && limit.windowMs > 0 && Number.isSafeInteger(limit.windowMs) ? limit : undefined;
}

const parsed = new Map<string, WindowLimit | null>();

/** The limit in force for `name`, or null when it is off. A malformed setting is logged once and the default used. */
export function windowLimit(name: LimitName): WindowLimit | null {
  const { env, fallback } = LIMITS[name];
  const raw = process.env[env] ?? fallback;
  const key = `${name}=${raw}`;
  let limit = parsed.get(key);
  if (limit === undefined) {
    limit = parseLimit(raw);
    if (limit === undefined) {
      log.error(`invalid ${env}="${raw}": expected "<max>/<window>" like "${fallback}" (window in s, m or h) or "off"; using ${fallback}`);
      limit = parseLimit(fallback) as WindowLimit;
    }
    parsed.set(key, limit);
  }
  return limit;
}

/**
 * How many proxies in front of Encore's gateway append to X-Forwarded-For and are trusted to tell the
 * truth (TRUSTED_PROXY_HOPS, default 0: only the address the gateway itself saw counts). Under
 * `encore run` it is 1: the daemon's proxy on :4000 is one (docs/rate-limits.md).
 */
export function trustedProxyHops(): number {
  const raw = process.env.TRUSTED_PROXY_HOPS ?? "0";
  const hops = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (Number.isSafeInteger(hops)) return hops;
  log.error(`invalid TRUSTED_PROXY_HOPS="${raw}": expected a whole number; trusting no proxy`);
  return 0;
}
