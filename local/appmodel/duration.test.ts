// Duration strings and cron expressions as configs use them.
import { describe, expect, it } from "vitest";
import { cronScheduleError, parseDurationMs } from "./duration";

describe("parseDurationMs", () => {
  it.each([
    ["10s", 10_000],
    ["500ms", 500],
    ["5m", 300_000],
    ["1h30m", 5_400_000],
    ["1h 30m", 5_400_000],
    ["1.5h", 5_400_000],
    ["7d", 604_800_000],
  ])("%s is %d ms", (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it.each(["", "10", "s", "10 s", "ten seconds", "1h,30m"])("rejects %j", (text) => {
    expect(parseDurationMs(text)).toBeNull();
  });
});

describe("cronScheduleError", () => {
  it.each(["0 3 * * *", "*/15 * * * *", "0 0 1,15 * mon-fri", "30 2 * jan-mar 0"])("accepts %j", (expr) => {
    expect(cronScheduleError(expr)).toBeNull();
  });

  it("requires exactly five fields, with Encore's message", () => {
    expect(cronScheduleError("0 3 * *")).toMatch(/^invalid cron expression: must have exactly 5 fields/);
    expect(cronScheduleError("0 0 3 * * *")).toMatch(/must have exactly 5 fields/);
  });

  it("rejects out-of-range values and bad steps", () => {
    expect(cronScheduleError("60 * * * *")).toMatch(/field 1/);
    expect(cronScheduleError("0 24 * * *")).toMatch(/field 2/);
    expect(cronScheduleError("*/0 * * * *")).toMatch(/invalid step/);
  });
});
