// Duration strings ("10s", "1h30m"), as Encore accepts them in configs.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * Milliseconds for a duration string, or null when it is not one. Encore parses these with the
 * Rust `duration-string` crate; its exact grammar could not be confirmed, so this accepts the
 * forms encore.dev's DurationString type allows: one or two `<number><unit>` parts, optionally
 * separated by a space, with units ns, us/µs, ms, s, m, h (plus d and w).
 */
export function parseDurationMs(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w)/y;
  let pos = 0;
  let total = 0;
  let parts = 0;
  while (pos < text.length) {
    if (parts > 0 && text[pos] === " ") pos++;
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null) return null;
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
    parts++;
  }
  return parts === 0 ? null : total;
}
