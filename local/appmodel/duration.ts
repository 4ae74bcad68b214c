// Duration strings ("10s", "1h30m") and cron schedules, as Encore accepts them in configs.

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

/** Allowed numeric range per cron field: minute, hour, day of month, month, day of week. */
const CRON_RANGES: [number, number][] = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/**
 * Why a cron expression is invalid, or null when it is valid. The 5-field message is Encore's
 * (cron.rs); per-field checks approximate the `cron_parser` crate, whose messages differ.
 */
export function cronScheduleError(expr: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) {
    return 'invalid cron expression: must have exactly 5 fields (minute, hour, day of month, month, day of week), e.g. "* * * * *".';
  }
  for (let i = 0; i < 5; i++) {
    const names = i === 3 ? MONTHS : i === 4 ? DAYS : [];
    const err = cronFieldError(fields[i], CRON_RANGES[i], names);
    if (err !== null) return `invalid cron expression: field ${i + 1} ("${fields[i]}"): ${err}`;
  }
  return null;
}

function cronFieldError(field: string, [lo, hi]: [number, number], names: string[]): string | null {
  const value = (s: string): number | null => {
    const idx = names.indexOf(s.toLowerCase());
    if (idx >= 0) return idx + (lo === 1 ? 1 : 0);
    return /^\d+$/.test(s) ? Number(s) : null;
  };
  for (const part of field.split(",")) {
    const [range, step, extra] = part.split("/");
    if (extra !== undefined || (step !== undefined && !/^[1-9]\d*$/.test(step))) return "invalid step";
    if (range === "*") continue;
    const bounds = range.split("-");
    if (bounds.length > 2) return "invalid range";
    const nums = bounds.map(value);
    if (nums.some((n) => n === null || n < lo || n > hi)) return `value out of range ${lo}-${hi}`;
    if (nums.length === 2 && (nums[0] as number) > (nums[1] as number)) return "invalid range";
  }
  return null;
}
