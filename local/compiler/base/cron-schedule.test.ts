// The one cron grammar: Encore's compiler rules (cron.rs + the cron-parser crate 0.8.1) where they
// differ from standard cron, and run times in UTC.
import { describe, expect, it } from "vitest";
import { cronScheduleError, parseCronSchedule } from "./cron-schedule";

const at = (iso: string) => new Date(iso);
const next = (expr: string, after: string) => parseCronSchedule(expr, at(after)).next(at(after)).toISOString();
const runs = (expr: string, after: string, count: number) => {
  const schedule = parseCronSchedule(expr, at(after));
  const out: string[] = [];
  for (let t = at(after); out.length < count;) {
    t = schedule.next(t);
    out.push(t.toISOString().slice(0, 16));
  }
  return out;
};

describe("what Encore's compiler accepts", () => {
  it.each(["0 3 * * *", "*/15 9-17 1,15 * MON-fri", "  0  0 * * sun ", "30 2 * 1-3 0", "0 12 29 2 *", "0 0 13 * 5"])(
    "accepts %j",
    (expr) => {
      expect(cronScheduleError(expr)).toBeNull();
    },
  );

  it("rejects a wrong field count with Encore's message", () => {
    expect(cronScheduleError("0 3 * *")).toBe(
      'invalid cron expression: must have exactly 5 fields (minute, hour, day of month, month, day of week), e.g. "* * * * *". Got "0 3 * *".',
    );
    expect(cronScheduleError("0 0 3 * * *")).toMatch(/must have exactly 5 fields/);
    expect(cronScheduleError("")).toMatch(/must have exactly 5 fields/);
  });

  it.each([
    // Standard cron runs these; Encore's compiler refuses them.
    ["0 3 * * 7", 'day of week field "7": 7 is out of range 0-6 (Sunday is 0)'],
    ["0 0 1 jan *", 'month field "jan": names are not supported in the month field, use numbers'],
    ["1-10/2 * * * *", 'steps are only supported as "*/n"'],
    ["5/15 * * * *", 'steps are only supported as "*/n"'],
    ["0 0 31 2 1", "it never runs within 4 years with day of month and day of week both required"],
    // Nobody runs these.
    ["60 * * * *", 'invalid cron schedule "60 * * * *": minute field "60": 60 is out of range 0-59'],
    ["* 24 * * *", 'hour field "24": 24 is out of range 0-23'],
    ["0 0 0 * *", 'day of month field "0": 0 is out of range 1-31'],
    ["*/0 * * * *", "step must be a number from 1 to 59"],
    ["*/60 * * * *", "step must be a number from 1 to 59"],
    ["5-1 * * * *", "range 5-1 runs backwards"],
    ["* * * * FUNDAY", 'unknown day name "FUNDAY"'],
    ["MON * * * *", "names are not supported in the minute field"],
    ["? * * * *", '"?" is not a number'],
    ["0 0 30 2 *", "it never runs"],
    // The crate skips an empty list item; croner cannot run one, so it is refused here.
    ["0 0 1,,15 * *", "empty list item"],
  ])("rejects %j with a clear error", (expr, message) => {
    expect(cronScheduleError(expr)).toContain(message);
  });

  it("looks four years ahead for a first run, as the crate does", () => {
    // Friday 13th: the compiler needs both day fields to match on one day, and one comes soon.
    expect(() => parseCronSchedule("0 0 13 * 5", at("2024-09-01T00:00:00Z"))).not.toThrow();
    // 29 February on a Monday: 2044 is more than four years after 2026.
    expect(() => parseCronSchedule("0 0 29 2 1", at("2026-03-01T00:00:00Z"))).toThrow("it never runs within 4 years");
    expect(() => parseCronSchedule("0 0 29 2 1", at("2040-03-01T00:00:00Z"))).not.toThrow();
  });
});

describe("when an accepted schedule runs (UTC)", () => {
  it("runs 0 3 * * * at 03:00 the same day, or the next day once it has passed", () => {
    expect(next("0 3 * * *", "2024-03-01T02:59:30Z")).toBe("2024-03-01T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-03-01T03:00:00Z")).toBe("2024-03-02T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-02-29T23:30:00Z")).toBe("2024-03-01T03:00:00.000Z");
    expect(next("0 3 * * *", "2024-12-31T04:00:00Z")).toBe("2025-01-01T03:00:00.000Z");
  });

  it("handles steps, ranges, lists and day names", () => {
    expect(next("*/15 * * * *", "2024-05-05T10:07:00Z")).toBe("2024-05-05T10:15:00.000Z");
    expect(next("*/15 * * * *", "2024-05-05T23:50:00Z")).toBe("2024-05-06T00:00:00.000Z");
    expect(next("30 9-17 * * *", "2024-05-05T17:30:00Z")).toBe("2024-05-06T09:30:00.000Z");
    expect(next("0 0 1,15 * *", "2024-01-02T00:00:00Z")).toBe("2024-01-15T00:00:00.000Z");
    expect(next("0 0 1,15 * *", "2024-01-15T00:00:00Z")).toBe("2024-02-01T00:00:00.000Z");
    expect(next("0 12 29 2 *", "2024-03-01T00:00:00Z")).toBe("2028-02-29T12:00:00.000Z");
    expect(runs("0 9 * * MON-fri", "2024-09-06T12:00:00Z", 2)).toEqual(["2024-09-09T09:00", "2024-09-10T09:00"]);
    expect(runs("0 0 * * 0", "2024-09-01T00:00:00Z", 1)).toEqual(["2024-09-08T00:00"]);
  });

  it("joins restricted day-of-month and day-of-week with OR, as standard cron and cloud schedulers do", () => {
    // 2024-09-01 is a Sunday: the first Friday comes before the 13th.
    expect(runs("0 0 13 * 5", "2024-09-01T00:00:00Z", 3)).toEqual(["2024-09-06T00:00", "2024-09-13T00:00", "2024-09-20T00:00"]);
    // With one day field unrestricted only the other counts.
    expect(next("0 0 * * 1", "2024-09-01T00:00:00Z")).toBe("2024-09-02T00:00:00.000Z");
  });
});
