// Cron jobs for the local runtime: jobs triggerable by name, and an optional scheduler that runs
// them when their schedule (compiler/base/cron-schedule.ts) or `every` says.
// Encore itself never runs cron jobs under `encore run` or in `encore test` (docs/ts/primitives/cron-jobs.md:
// "Cron Jobs do not run when developing locally"), nor when self-hosted (`encore build docker` only
// prints a table of them to wire up: cli/daemon/export/infra_config.go, formatCronJobInstructions),
// so the scheduler is opt-in: `npm start` starts it only when LOCAL_RUN_CRON=1.
import type { CronJobModel } from "../model/app-model";
import { parseCronSchedule } from "../compiler/base/cron-schedule";
import type { Napi } from "../model/napi";
import { appModel } from "./core/context";
import { apiCall } from "./gateway/calls";
import { ApiCallError } from "./wire/errors";
import { rootLogger } from "./core/logger";
import { LogLevel } from "./core/napi-enums";

/** `every` runs "around the clock each day, starting at midnight (UTC)" (docs/ts/primitives/cron-jobs.md). */
export function nextEveryRun(everyMs: number, after: Date): Date {
  const midnight = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate());
  const next = midnight + (Math.floor((after.getTime() - midnight) / everyMs) + 1) * everyMs;
  return new Date(Math.min(next, midnight + 86_400_000));
}

export function nextJobRun(job: CronJobModel, after: Date): Date {
  if (job.everyMs !== null) return nextEveryRun(job.everyMs, after);
  if (job.schedule !== null) return parseCronSchedule(job.schedule).next(after);
  throw new Error(`cron job "${job.id}" has neither a schedule nor every`);
}

/** What running jobs needs from the runtime; injected so tests can use fake jobs and a fake endpoint. */
export interface CronDeps {
  jobs(): CronJobModel[];
  /** Calls the job's endpoint through the internal call path (private endpoints allowed). */
  call(service: string, endpoint: string): Promise<Record<string, unknown> | null | ApiCallError>;
}

function log(level: Napi.LogLevel, msg: string, fields: Record<string, unknown>): void {
  rootLogger.log(null, level, msg, undefined, undefined, fields);
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
