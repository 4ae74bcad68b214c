// Cron jobs for the local runtime: schedules checked as Encore's compiler checks them, the next run
// computed in UTC, jobs triggerable by name, and an optional scheduler.
// Encore itself never runs cron jobs under `encore run`, in `encore test` or when self-hosted
// (ENCORE.md §8), so the scheduler is opt-in: `npm start` starts it only when LOCAL_RUN_CRON=1.
import type { CronJobModel } from "../appmodel/model";
import type { Napi } from "./napi-types";
import { appModel } from "./context";
import { apiCall } from "./api/calls";
import { ApiCallError } from "./api/errors";
import { LogLevel, rootLogger } from "./logger";

/** A parsed 5-field schedule: the allowed values of each field. */
export interface CronSchedule {
  expr: string;
  minutes: Set<number>;
  hours: Set<number>;
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** Vixie cron's DOM_STAR/DOW_STAR: a field starting with "*" does not take part in the OR rule. */
  domStar: boolean;
  dowStar: boolean;
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

/** Encore's own message (tsparser/src/parser/resources/infra/cron.rs). */
const FIELD_COUNT_ERROR =
  'invalid cron expression: must have exactly 5 fields (minute, hour, day of month, month, day of week), e.g. "* * * * *".';

/** Longest month lengths; February counts 29 because leap years exist. */
const MAX_DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function parseValue(text: string, spec: FieldSpec, fail: (why: string) => never): number {
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

/**
 * The grammar of the cron-parser crate Encore's compiler validates with (0.8.1): "*", "*\/n",
 * "a-b", numbers, day names, comma lists. It has no "a-b/n" or "a/n", so neither do we.
 */
function parseField(text: string, spec: FieldSpec, expr: string): Set<number> {
  const fail = (why: string): never => {
    throw new Error(`invalid cron schedule "${expr}": ${spec.name} field "${text}": ${why}`);
  };
  const values = new Set<number>();
  for (const item of text.split(",")) {
    if (item === "") fail("empty list item");
    if (item === "*") {
      for (let i = spec.min; i <= spec.max; i++) values.add(i);
    } else if (item.startsWith("*/")) {
      const step = item.slice(2);
      if (!/^\d+$/.test(step) || Number(step) < 1 || Number(step) > spec.max) fail(`step must be a number from 1 to ${spec.max}`);
      for (let i = spec.min; i <= spec.max; i += Number(step)) values.add(i);
    } else if (item.includes("/")) {
      fail('steps are only supported as "*/n"; Encore\'s schedule parser rejects "a-b/n" and "a/n"');
    } else if (item.includes("-")) {
      const parts = item.split("-");
      if (parts.length !== 2) fail(`"${item}" is not a range`);
      const [lo, hi] = parts.map((p) => parseValue(p, spec, fail));
      if (lo > hi) fail(`range ${item} runs backwards`);
      for (let i = lo; i <= hi; i++) values.add(i);
    } else {
      values.add(parseValue(item, spec, fail));
    }
  }
  return values;
}

/** Parses and checks a 5-field UTC schedule; throws an Error naming the expression and the field. */
export function parseCronSchedule(expr: string): CronSchedule {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`${FIELD_COUNT_ERROR} Got "${expr}".`);
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = fields.map((f, i) => parseField(f, FIELDS[i], expr));
  const schedule: CronSchedule = {
    expr,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    domStar: fields[2].startsWith("*"),
    dowStar: fields[4].startsWith("*"),
  };
  const someDayExists = [...months].some((m) => [...daysOfMonth].some((d) => d <= MAX_DAYS_IN_MONTH[m - 1]));
  if (!someDayExists && (schedule.dowStar || schedule.domStar)) {
    throw new Error(`invalid cron schedule "${expr}": it never runs, no allowed month has any of the allowed days`);
  }
  return schedule;
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  // Standard cron: when both day fields are restricted, either one matching is enough.
  return s.domStar || s.dowStar ? dom && dow : dom || dow;
}

/** The first minute strictly after `after` that the schedule allows (UTC). */
export function nextCronRun(s: CronSchedule, after: Date): Date {
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  const limit = after.getTime() + 10 * 366 * 86_400_000;
  while (t.getTime() <= limit) {
    if (!s.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0);
    } else if (!dayMatches(s, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0);
    } else if (!s.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0);
    } else if (!s.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1);
    } else {
      return t;
    }
  }
  throw new Error(`cron schedule "${s.expr}" has no run in the next 10 years`);
}

/** `every` runs "around the clock each day, starting at midnight (UTC)" (docs/ts/primitives/cron-jobs.md). */
export function nextEveryRun(everyMs: number, after: Date): Date {
  const midnight = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  const next = midnight + (Math.floor((after.getTime() - midnight) / everyMs) + 1) * everyMs;
  return new Date(Math.min(next, midnight + 86_400_000));
}

export function nextJobRun(job: CronJobModel, after: Date): Date {
  if (job.everyMs !== null) return nextEveryRun(job.everyMs, after);
  if (job.schedule !== null) return nextCronRun(parseCronSchedule(job.schedule), after);
  throw new Error(`cron job "${job.id}" has neither a schedule nor every`);
}

/** What running jobs needs from the runtime; injected so tests can use fake jobs and a fake endpoint. */
export interface CronDeps {
  jobs(): CronJobModel[];
  /** Calls the job's endpoint through the internal call path (private endpoints allowed). */
  call(service: string, endpoint: string): Promise<Record<string, unknown> | null | ApiCallError>;
}

function log(level: LogLevel, msg: string, fields: Record<string, unknown>): void {
  rootLogger.log(null, level as number as Napi.LogLevel, msg, undefined, undefined, fields);
}

/** setTimeout's limit; longer waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function cronRunner(deps: CronDeps) {
  /** Calls the job's endpoint once; rejects with the ApiCallError when the endpoint failed. */
  async function runCronJob(id: string): Promise<void> {
    const jobs = deps.jobs();
    const job = jobs.find((j) => j.id === id);
    if (!job) {
      const known = jobs.map((j) => `"${j.id}"`).join(", ") || "none";
      throw new Error(`unknown cron job "${id}"; known cron jobs: ${known}`);
    }
    const fields = { cronJob: id, endpoint: `${job.endpoint.service}.${job.endpoint.name}` };
    const started = Date.now();
    let result: Awaited<ReturnType<CronDeps["call"]>>;
    try {
      result = await deps.call(job.endpoint.service, job.endpoint.name);
    } catch (e) {
      log(LogLevel.Error, "cron job failed", { ...fields, error: (e as Error).message ?? String(e) });
      throw e;
    }
    if (result instanceof ApiCallError) {
      log(LogLevel.Error, "cron job failed", { ...fields, code: result.code, error: result.message });
      throw result;
    }
    log(LogLevel.Info, "cron job completed", { ...fields, durationMs: Date.now() - started });
  }

  /** Runs every job of the app on its schedule until the returned function is called. */
  function startCronScheduler(): () => void {
    const timers = new Map<string, NodeJS.Timeout>();
    let stopped = false;
    const plan = (job: CronJobModel, after: Date): Date => {
      const next = nextJobRun(job, after);
      const due = next.getTime();
      const wait = (): void => {
        const left = due - Date.now();
        const timer = setTimeout(left > MAX_TIMER_MS ? wait : fire, Math.min(Math.max(left, 0), MAX_TIMER_MS));
        timer.unref();
        timers.set(job.id, timer);
      };
      const fire = (): void => {
        if (stopped) return;
        // Planned from the due time at the earliest, so a timer firing early cannot run a job twice.
        plan(job, new Date(Math.max(Date.now(), due)));
        // A failure is already logged by runCronJob; the next run is planned regardless.
        runCronJob(job.id).catch(() => {});
      };
      wait();
      return next;
    };
    for (const job of deps.jobs()) {
      log(LogLevel.Info, "cron job scheduled", { cronJob: job.id, next: plan(job, new Date()) });
    }
    return () => {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    };
  }

  return { runCronJob, startCronScheduler };
}

const runner = cronRunner({
  jobs: () => appModel().cronJobs,
  call: (service, endpoint) => apiCall(service, endpoint, null, null, null),
});

/** Triggers a cron job by id, as Encore's dashboard "Run now" does. */
export const runCronJob = runner.runCronJob;

/** Opt-in scheduler (LOCAL_RUN_CRON=1); returns a stop function. */
export const startCronScheduler = runner.startCronScheduler;
