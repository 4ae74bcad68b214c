// Cron schedules, one grammar for `npm run check` and the LOCAL_RUN_CRON scheduler: what Encore's
// compiler accepts (tsparser/src/parser/resources/infra/cron.rs checks five fields, then asks the
// cron-parser crate 0.8.1 for a next run), with run times computed by croner in UTC.
//
// Where that differs from standard (Vixie) cron, tested in cron-schedule.test.ts:
// - day of week is 0-6 (7 is not Sunday); names only for days of week (SUN-SAT), none for months;
// - steps only as "*/n" (no "a-b/n", no "a/n"), n at most the field's maximum, never 0;
// - an empty list item ("1,,15"), which the crate skips, is refused here: croner cannot run it;
// - the crate walks up to four years ahead with day of month AND day of week both required, and
//   fails a schedule that never matches that way ("0 0 31 2 1", "0 0 30 2 *");
// - once accepted, a schedule runs as standard cron reads it (the cloud schedulers Encore Cloud
//   deploys to do): both day fields restricted means either one matching is enough. croner counts
//   a "*/n" day field as restricted, where Vixie cron counts any field starting with "*" as "*".
import { Cron } from "croner";

/** CronSchedule is a checked 5-field schedule in UTC. */
export interface CronSchedule {
  expr: string;
  /** The first run strictly after `after`. */
  next(after: Date): Date;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
}

const FIELDS: FieldSpec[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 6, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

/** Encore's own message (cron.rs). */
const FIELD_COUNT_ERROR =
  'invalid cron expression: must have exactly 5 fields (minute, hour, day of month, month, day of week), e.g. "* * * * *".';

/** How far the crate looks for a first run before calling a schedule invalid. */
const SEARCH_YEARS = 4;

function checkValue(text: string, spec: FieldSpec, fail: (why: string) => never): number {
  const named = spec.names?.indexOf(text.toUpperCase()) ?? -1;
  if (named >= 0) return named;
  if (!/^\d+$/.test(text)) {
    if (/^[A-Za-z]+$/.test(text)) {
      fail(spec.names ? `unknown day name "${text}" (use SUN to SAT)` : `names are not supported in the ${spec.name} field, use numbers`);
    }
    fail(`"${text}" is not a number`);
  }
  const n = Number(text);
  if (n < spec.min || n > spec.max) {
    const hint = spec.name === "day of week" && n === 7 ? " (Sunday is 0)" : "";
    fail(`${n} is out of range ${spec.min}-${spec.max}${hint}`);
  }
  return n;
}

function checkField(text: string, spec: FieldSpec, fail: (why: string) => never): void {
  for (const item of text.split(",")) {
    if (item === "") fail("empty list item");
    if (item === "*") continue;
    if (item.startsWith("*/")) {
      const step = item.slice(2);
      if (!/^\d+$/.test(step) || Number(step) < 1 || Number(step) > spec.max) fail(`step must be a number from 1 to ${spec.max}`);
    } else if (item.includes("/")) {
      fail('steps are only supported as "*/n"; Encore\'s schedule parser rejects "a-b/n" and "a/n"');
    } else if (item.includes("-")) {
      const parts = item.split("-");
      if (parts.length !== 2) fail(`"${item}" is not a range`);
      const [lo, hi] = parts.map((p) => checkValue(p, spec, fail));
      if (lo > hi) fail(`range ${item} runs backwards`);
    } else {
      checkValue(item, spec, fail);
    }
  }
}

/** croner for `expr` in UTC; `domAndDow` requires both day fields, as the crate's check does. */
function cron(expr: string, domAndDow: boolean): Cron {
  return new Cron(expr, { timezone: "UTC", paused: true, mode: "5-part", domAndDow });
}

/** Checks a schedule as Encore's compiler does; throws an Error naming the expression and the field. */
export function parseCronSchedule(expr: string, now: Date = new Date()): CronSchedule {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`${FIELD_COUNT_ERROR} Got "${expr}".`);
  fields.forEach((field, i) =>
    checkField(field, FIELDS[i], (why) => {
      throw new Error(`invalid cron schedule "${expr}": ${FIELDS[i].name} field "${field}": ${why}`);
    }),
  );
  const first = cron(expr, true).nextRun(now);
  const horizon = Date.UTC(now.getUTCFullYear() + SEARCH_YEARS + 1, 0, 1);
  if (first === null || first.getTime() >= horizon) {
    throw new Error(
      `invalid cron schedule "${expr}": it never runs within ${SEARCH_YEARS} years with day of month and day of week both required`,
    );
  }
  const runs = cron(expr, false);
  return {
    expr,
    next(after: Date): Date {
      const next = runs.nextRun(after);
      if (next === null) throw new Error(`cron schedule "${expr}" has no next run after ${after.toISOString()}`);
      return next;
    },
  };
}

/** Why a schedule is invalid (Encore's compile error), or null when it is valid. */
export function cronScheduleError(expr: string): string | null {
  try {
    parseCronSchedule(expr);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
