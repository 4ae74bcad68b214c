// captureLogs: named lines are held back from stderr and asserted on, a named line that never comes
// fails the test, and every other line still prints.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Logger } from "../runtime/core/logger";
import { LogLevel } from "../runtime/core/napi-enums";
import { captureLogs } from "../testing";
import { logMatches, openCapture } from "./log-capture";

const logger = new Logger(LogLevel.Warn, { topic: "clicks" });
const printed = () => vi.mocked(process.stderr.write).mock.calls.map(([chunk]) => String(chunk));

describe("captureLogs", () => {
  afterEach(() => vi.restoreAllMocks());

  it("holds back the lines a test names and prints the others", () => {
    const logs = captureLogs({ level: "WRN", msg: "subscription handler failed", fields: { attempt: 1 } });
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    logger.log(null, 4, "subscription handler failed", new Error("connection reset"), undefined, { attempt: 1 });
    logger.log(null, 5, "something nobody expected");
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: "WRN",
        msg: "subscription handler failed",
        fields: expect.objectContaining({ topic: "clicks", err: "connection reset" }),
      }),
    ]);
    expect(printed()).toEqual([expect.stringMatching(/ ERR something nobody expected topic=clicks\n$/)]);
  });

  it.fails("fails the test when a named line never comes", () => {
    captureLogs({ level: "ERR", msg: "webhook delivery failed" });
  });

  it("reports what never came, and prints what it held when the test failed", () => {
    const capture = openCapture([
      { level: "WRN", msg: /^retrying/ },
      { level: "ERR", msg: "gave up", fields: { attempts: 3 } },
    ]);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    logger.log(null, 4, "retrying in 3 ms");
    logger.log(null, 5, "gave up", undefined, undefined, { attempts: 2 });
    expect(printed()).toEqual([expect.stringMatching(/ ERR gave up topic=clicks attempts=2\n$/)]);
    expect(capture.end(true)).toBe('expected log lines that never came:\n  ERR gave up {"attempts":3}');
    expect(printed()[1]).toMatch(/ WRN retrying in 3 ms topic=clicks\n$/);
    logger.log(null, 4, "retrying in 6 ms");
    expect(printed()[2]).toMatch(/ WRN retrying in 6 ms/);
  });

  it("matches level, message and fields, a RegExp against the value as printed", () => {
    const line = { level: "WRN" as const, msg: "handler failed", fields: { attempt: 2, err: "attempt 2 failed: 500" }, text: "" };
    expect(logMatches(line, { level: "WRN", msg: "handler failed", fields: { attempt: 2, err: /: 500$/ } })).toBe(true);
    expect(logMatches(line, { level: "ERR", msg: "handler failed" })).toBe(false);
    expect(logMatches(line, { level: "WRN", msg: "handler" })).toBe(false);
    expect(logMatches(line, { level: "WRN", msg: /handler/, fields: { attempt: 3 } })).toBe(false);
    expect(logMatches(line, { level: "WRN", msg: /handler/, fields: { missing: /.*/ } })).toBe(false);
  });
});
