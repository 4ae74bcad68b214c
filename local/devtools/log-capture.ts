// The warnings and errors a test causes on purpose (a fault it injects, a retry it forces) are its
// results, not noise: a test names them, they are held back from stderr and asserted on, so a green
// run prints none and a test whose expected line never came fails. Lines nobody named still print.
import { interceptLogLines, type LevelName, type LogLine } from "../runtime/core/logger";

export type { LogLine };

/** A field's expected value: equal, or for a RegExp, matching the value as the line prints it. */
type FieldPattern = string | number | boolean | null | RegExp;

/** ExpectedLog names lines a test causes: the level, the message (whole, or a RegExp), and fields it must carry. */
export interface ExpectedLog {
  level: LevelName;
  msg: string | RegExp;
  fields?: Record<string, FieldPattern>;
}

/** A capture's held-back lines, in the order they were logged. */
export interface CapturedLogs {
  readonly lines: LogLine[];
}

function fieldMatches(value: unknown, want: FieldPattern): boolean {
  if (want instanceof RegExp) return value !== undefined && want.test(typeof value === "string" ? value : JSON.stringify(value));
  return value === want;
}

/** Whether `line` is one `expected` names. */
export function logMatches(line: LogLine, expected: ExpectedLog): boolean {
  if (line.level !== expected.level) return false;
  if (typeof expected.msg === "string" ? line.msg !== expected.msg : !expected.msg.test(line.msg)) return false;
  return Object.entries(expected.fields ?? {}).every(([key, want]) => fieldMatches(line.fields[key], want));
}

interface Capture {
  expected: ExpectedLog[];
  held: LogLine[];
}

/** The captures open now; a line goes to the first that names it. */
const open = new Set<Capture>();

function intercept(line: LogLine): boolean {
  for (const capture of open) {
    if (capture.expected.some((e) => logMatches(line, e))) {
      capture.held.push(line);
      return true;
    }
  }
  return false;
}

/** What an ended capture has to say: null when every expected line came, else which did not. */
function missing(capture: Capture): string | null {
  const absent = capture.expected.filter((e) => !capture.held.some((line) => logMatches(line, e)));
  if (absent.length === 0) return null;
  const shown = absent.map(
    (e) =>
      `${e.level} ${String(e.msg)}${e.fields ? ` ${JSON.stringify(e.fields, (_, v: unknown) => (v instanceof RegExp ? String(v) : v))}` : ""}`,
  );
  return `expected log lines that never came:\n  ${shown.join("\n  ")}`;
}

/**
 * openCapture starts holding back the lines `expected` names; `end` stops it and returns what was
 * missing (null if nothing). With `failed`, the held lines are printed after all, to help read the failure.
 */
export function openCapture(expected: ExpectedLog[]): { logs: CapturedLogs; end(failed: boolean): string | null } {
  if (expected.length === 0) throw new Error("captureLogs: name at least one expected line");
  const capture: Capture = { expected, held: [] };
  open.add(capture);
  interceptLogLines(intercept);
  return {
    logs: { lines: capture.held },
    end(failed) {
      open.delete(capture);
      if (open.size === 0) interceptLogLines(null);
      if (failed) for (const line of capture.held) process.stderr.write(line.text + "\n");
      return missing(capture);
    },
  };
}
