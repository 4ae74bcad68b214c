// Duration strings as configs use them.
import { describe, expect, it } from "vitest";
import { parseDurationMs } from "./duration";

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
