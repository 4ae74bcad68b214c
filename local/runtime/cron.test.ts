import { describe, it, expect, vi, afterEach } from "vitest";
import type { CronJobModel } from "../model/app-model";

const loc = { file: "url/cleanup.ts", line: 1, column: 1 };
const cleanup: CronJobModel = {
  id: "cleanup-stale-urls",
  title: "Remove URLs with no clicks in 90 days",
  file: "url/cleanup.ts",
  loc,
  schedule: "0 3 * * *",
  everyMs: null,
  endpoint: { service: "url", name: "cleanupStaleUrls" },
};

// The runtime's own wiring is checked against a fake model and a fake internal call path.
vi.mock("./core/context", () => ({ testMode: true, appModel: () => ({ cronJobs: [cleanup] }) }));
vi.mock("./gateway/calls", () => ({ apiCall: vi.fn(async () => null) }));

import { apiCall } from "./gateway/calls";
import { ApiCallError, wireError } from "./wire/errors";
import { cronRunner, nextEveryRun, nextJobRun, runCronJob } from "./cron";

const at = (iso: string) => new Date(iso);

describe("next run of a job (UTC)", () => {
  it("follows the job's schedule", () => {
    expect(nextJobRun(cleanup, at("2024-03-01T02:59:30Z")).toISOString()).toBe("2024-03-01T03:00:00.000Z");
  });

  it.each(["0 3 * * 7", "0 0 1 jan *"])("refuses %s, as npm run check does", (schedule) => {
    expect(() => nextJobRun({ ...cleanup, schedule }, at("2024-03-01T00:00:00Z"))).toThrow(`invalid cron schedule "${schedule}"`);
  });

  it("runs `every` jobs at multiples of the interval since midnight UTC", () => {
    const sixHours = 6 * 3_600_000;
    expect(nextEveryRun(sixHours, at("2024-03-01T07:00:00Z")).toISOString()).toBe("2024-03-01T12:00:00.000Z");
    expect(nextEveryRun(sixHours, at("2024-03-01T12:00:00Z")).toISOString()).toBe("2024-03-01T18:00:00.000Z");
    expect(nextEveryRun(sixHours, at("2024-03-01T19:00:00Z")).toISOString()).toBe("2024-03-02T00:00:00.000Z");
    // An interval that does not divide 24h starts over at midnight.
    expect(nextEveryRun(7 * 3_600_000, at("2024-03-01T21:30:00Z")).toISOString()).toBe("2024-03-02T00:00:00.000Z");
  });
});

describe("running cron jobs", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("runCronJob calls the job's endpoint through the internal call path", async () => {
    await runCronJob("cleanup-stale-urls");
    expect(apiCall).toHaveBeenCalledWith("url", "cleanupStaleUrls", null, null, null);
  });

  it("lists the known jobs for an unknown id", async () => {
    await expect(runCronJob("nope")).rejects.toThrow('unknown cron job "nope"; known cron jobs: "cleanup-stale-urls"');
    const empty = cronRunner({ jobs: () => [], call: async () => null });
    await expect(empty.runCronJob("nope")).rejects.toThrow("known cron jobs: none");
  });

  it("rejects with the endpoint's ApiCallError and logs the failure with the job id", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const failure = new ApiCallError(wireError("unavailable", "database is down"));
    const runner = cronRunner({ jobs: () => [cleanup], call: async () => failure });
    await expect(runner.runCronJob("cleanup-stale-urls")).rejects.toBe(failure);
    const line = stderr.mock.calls.map((c) => String(c[0])).find((l) => l.includes("cron job failed"));
    expect(line).toContain("cronJob=cleanup-stale-urls");
    expect(line).toContain("code=unavailable");
  });

  it("rejects when the call itself throws", async () => {
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const runner = cronRunner({ jobs: () => [cleanup], call: async () => Promise.reject(new Error("no such endpoint registered")) });
    await expect(runner.runCronJob("cleanup-stale-urls")).rejects.toThrow("no such endpoint registered");
  });

  it("the scheduler runs each job when it is due and stops when asked", async () => {
    vi.useFakeTimers({ now: at("2024-03-01T02:58:30Z") });
    const calls: string[] = [];
    const minutely: CronJobModel = {
      ...cleanup,
      id: "minutely",
      schedule: null,
      everyMs: 60_000,
      endpoint: { service: "svc", name: "tick" },
    };
    const runner = cronRunner({
      jobs: () => [cleanup, minutely],
      call: async (_service, endpoint) => {
        calls.push(`${new Date().toISOString()} ${endpoint}`);
        return null;
      },
    });
    const stop = runner.startCronScheduler();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(calls).toEqual(["2024-03-01T02:59:00.000Z tick", "2024-03-01T03:00:00.000Z cleanupStaleUrls", "2024-03-01T03:00:00.000Z tick"]);
    stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(3);
  });
});
