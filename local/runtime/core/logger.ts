// encore.dev/log's sink: one line per entry on stderr, "LEVEL message key=value ...", quiet in tests
// unless LOG_LEVEL asks for more.
import type { Napi } from "../../model/napi";
import { testMode } from "./context";
import { channels, type LogAnnouncement } from "./events";
import { isoNow } from "./clock";
import { LogLevel } from "./napi-enums";

const names: Record<number, LevelName> = { 1: "TRC", 2: "DBG", 3: "INF", 4: "WRN", 5: "ERR" };

export type LevelName = "TRC" | "DBG" | "INF" | "WRN" | "ERR";

/** One log line and what it was made of: `fields` holds the endpoint and `err` as the line shows them. */
export interface LogLine {
  level: LevelName;
  msg: string;
  fields: Record<string, unknown>;
  text: string;
}

/** Sees each line before stderr and keeps it from stderr by returning true: a test's captureLogs (local/testing.ts). */
let interceptor: ((line: LogLine) => boolean) | null = null;

/** Installs (or, with null, removes) the one interceptor. */
export function interceptLogLines(fn: ((line: LogLine) => boolean) | null): void {
  interceptor = fn;
}

function levelFromEnv(): Napi.LogLevel {
  const wanted = (process.env.LOG_LEVEL ?? "").toLowerCase();
  const byName: Record<string, Napi.LogLevel> = {
    trace: LogLevel.Trace,
    debug: LogLevel.Debug,
    info: LogLevel.Info,
    warn: LogLevel.Warn,
    error: LogLevel.Error,
  };
  return byName[wanted] ?? (testMode ? LogLevel.Warn : LogLevel.Trace);
}

function formatValue(v: unknown): string {
  if (typeof v === "string") return /[\s="]/.test(v) ? JSON.stringify(v) : v;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Error) return JSON.stringify(v.message);
  return JSON.stringify(v) ?? String(v);
}

/** Formats one log line; exported for the HTTP server's access log. */
export function formatLine(level: Napi.LogLevel, msg: string, fields: Record<string, unknown>): string {
  // A plain loop: this runs once per request for the access log.
  let line = `${isoNow()} ${names[level]} ${msg}`;
  for (const k in fields) {
    const v = fields[k];
    if (v !== undefined) line += ` ${k}=${formatValue(v)}`;
  }
  return line;
}

export class Logger implements Napi.Logger {
  constructor(
    private readonly min: Napi.LogLevel,
    private readonly fields: Record<string, unknown> = {},
  ) {}

  log(
    request: Napi.Request | null | undefined,
    level: Napi.LogLevel,
    msg: string,
    error?: Error,
    _caller?: string,
    fields?: Record<string, unknown>,
  ): void {
    if (level < this.min) return;
    if (channels.log.hasSubscribers) {
      const line: LogAnnouncement = {
        source: request,
        level: names[level],
        msg,
        fields: fields ? { ...this.fields, ...fields } : this.fields,
      };
      if (error) line.error = error.message;
      channels.log.publish(line);
    }
    const meta = request?.meta();
    const endpoint = meta?.apiCall ? `${meta.apiCall.api.service}.${meta.apiCall.api.endpoint}` : undefined;
    const all = { endpoint, ...this.fields, ...fields, err: error?.message };
    const text = formatLine(level, msg, all);
    if (interceptor?.({ level: names[level], msg, fields: all, text })) return;
    process.stderr.write(text + "\n");
  }

  withLevel(level: Napi.LogLevel): Logger {
    return new Logger(level, this.fields);
  }

  with(fields: Record<string, unknown>): Logger {
    return new Logger(this.min, { ...this.fields, ...fields });
  }
}

export const rootLogger = new Logger(levelFromEnv());
