import { describe, it, expect, vi, afterEach } from "vitest";
import type { CronJobModel } from "../appmodel/model";

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
vi.mock("./context", () => ({ testMode: true, appModel: () => ({ cronJobs: [cleanup] }) }));
vi.mock("./api/calls", () => ({ apiCall: vi.fn(async () => null) }));

import { apiCall } from "./api/calls";
import { ApiCallError, wireError } from "./api/errors";
import { cronRunner, nextCronRun, nextEveryRun, parseCronSchedule, runCronJob } from "./cron";

const at = (iso: string) => new Date(iso);
const next = (expr: string, after: string) => nextCronRun(parseCronSchedule(expr), at(after)).toISOString();

describe("parsing cron schedules", () => {
  it("accepts numbers, *, */n, ranges, lists and day names", () => {
    const s = parseCronSchedule("*/15 9-17 1,15 * MON-fri");
    expect([...s.minutes]).toEqual([0, 15, 30, 45]);
    expect([...s.hours]).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...s.daysOfMonth]).toEqual([1, 15]);
    expect(s.months.size).toBe(12);
    expect([...s.daysOfWeek]).toEqual([1, 2, 3, 4, 5]);
    expect(parseCronSchedule("0 3 * * *").hours).toEqual(new Set([3]));
    expect(parseCronSchedule("  0  0 * * sun ").daysOfWeek).toEqual(new Set([0]));
  });

  it("rejects a wrong field count with Encore's message", () => {
    expect(() => parseCronSchedule("0 3 * *")).toThrow(
      'invalid cron expression: must have exactly 5 fields (minute, hour, day of month, month, day of week), e.g. "* * * * *". Got "0 3 * *".',
    );
    expect(() => parseCronSchedule("0 0 3 * * *")).toThrow("must have exactly 5 fields");
    expect(() => parseCronSchedule("")).toThrow("must have exactly 5 fields");
  });

  it.each([
    ["60 * * * *", 'invalid cron schedule "60 * * * *": minute field "60": 60 is out of range 0-59'],
    ["* 24 * * *", 'hour field "24": 24 is out of range 0-23'],
    ["0 0 0 * *", 'day of month field "0": 0 is out of range 1-31'],
    ["* * * * 7", 'day of week field "7": 7 is out of range 0-6 (Sunday is 0)'],
    ["1-10/2 * * * *", 'steps are only supported as "*/n"'],
    ["*/0 * * * *", "step must be a number from 1 to 59"],
    ["5-1 * * * *", "range 5-1 runs backwards"],
    ["* * * JAN *", "names are not supported in the month field, use numbers"],
    ["* * * * FUNDAY", 'unknown day name "FUNDAY"'],
    ["1,,2 * * * *", "empty list item"],
    ["? * * * *", '"?" is not a number'],
    ["0 0 30 2 *", "it never runs, no allowed month has any of the allowed days"],
  ])("rejects %s with a clear error", (expr, message) => {
    expect(() => parseCronSchedule(expr)).toThrow(message);
  });
});

describe("next run (UTC)", () => {
  it("runs 0 3 * * * at 03:00 the same day, or the next day once it has passed", () => {
    expect(next("0 3 * * *", "2024-03-01T02:59:30Z")).toBe("2024-03-01T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-03-01T03:00:00Z")).toBe("2024-03-02T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-02-29T23:30:00Z")).toBe("2024-03-01T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-12-31T04:00:00Z")).toBe("2025-01-01T03:00:00.000Z");
  });

  it("handles steps, ranges and lists", () => {
    expect(next("*/15 * * * *", "2024-05-05T10:07:00Z")).toBe("2024-05-05T10:15:00.000Z");
    expect(next("*/15 * * * *", "2024-05-05T23:50:00Z")).toBe("2024-05-06T00:00:00.000Z");
    expect(next("30 9-17 * * *", "2024-05-05T17:30:00Z")).toBe("2024-05-06T09:30:00.000Z");
    expect(next("0 0 1,15 * *", "2024-01-02T00:00:00Z")).toBe("2024-01-15T00:00:00.000Z");
    expect(next("0 0 1,15 * *", "2024-01-15T00:00:00Z")).toBe("2024-02-01T00:00:00.000Z");
    expect(next("0 12 29 2 *", "2024-03-01T00:00:00Z")).toBe("2028-02-29T12:00:00.000Z");
  });

  it("joins restricted day-of-month and day-of-week with OR, as standard cron does", () => {
    // 2024-09-01 is a Sunday: the first Friday comes before the 13th.
    expect(next("0 0 13 * 5", "2024-09-01T00:00:00Z")).toBe("2024-09-06T00:00:00.000Z");
    expect(next("0 0 13 * 5", "2024-09-12T00:00:00Z")).toBe("2024-09-13T00:00:00.000Z");
    // With one day field unrestricted only the other counts.
    expect(next("0 0 * * 1", "2024-09-01T00:00:00Z")).toBe("2024-09-02T00:00:00.000Z");
    // A day field starting with "*" counts as unrestricted (Vixie cron), so */10 and Monday must both match.
    expect(next("0 0 */10 * 1", "2024-09-01T00:00:00Z")).toBe("2024-10-21T00:00:00.000Z");
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
    const minutely: CronJobModel = { ...cleanup, id: "minutely", schedule: null, everyMs: 60_000, endpoint: { service: "svc", name: "tick" } };
    const runner = cronRunner({
      jobs: () => [cleanup, minutely],
      call: async (_service, endpoint) => {
        calls.push(`${new Date().toISOString()} ${endpoint}`);
        return null;
      },
    });
    const stop = runner.startCronScheduler();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(calls).toEqual([
      "2024-03-01T02:59:00.000Z tick",
      "2024-03-01T03:00:00.000Z cleanupStaleUrls",
      "2024-03-01T03:00:00.000Z tick",
    ]);
    stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toHaveLength(3);
  });
});
