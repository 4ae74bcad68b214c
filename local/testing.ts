// The one door from the app's tests into the local runtime. Everything here is local-only except
// `localRuntime`, `describeLocal` and the APIError assertions, which let the same test files run under
// `encore test`, where the HTTP-level tests are skipped with the reason in their title.
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { APIError, type ErrCode } from "encore.dev/api";
import { includeInternalMessage } from "./runtime/wire/errors";
import { openCapture, type CapturedLogs, type ExpectedLog } from "./devtools/log-capture";

export type { CapturedLogs, ExpectedLog, LogLine } from "./devtools/log-capture";
export { databaseDir, databaseUrl, freshAppState, loadAppModel, removeAppState, startApp, type SpawnedApp } from "./index";

/** False under `encore test` (Encore's native runtime is loaded through ENCORE_RUNTIME_LIB). */
export const localRuntime = !process.env.ENCORE_RUNTIME_LIB;

const SKIP_REASON = "skipped under encore test: needs the local runtime's in-process HTTP server and test hooks";

/** A describe block that runs on the local runtime only. */
export function describeLocal(name: string, fn: () => void): void {
  if (localRuntime) describe(name, fn);
  else describe.skip(`${name} (${SKIP_REASON})`, fn);
}

function requireLocal(what: string): void {
  if (!localRuntime) throw new Error(`${what} needs the local runtime; wrap the test in describeLocal`);
}

/** A running copy of the whole app for HTTP tests. */
export interface TestServer {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * True when each database is one embedded PGlite connection (no DATABASE_URL): concurrent
 * transactions then run one after another, so race tests prove something only on the server.
 */
export const singleConnectionDatabase = localRuntime && !process.env.DATABASE_URL;

/** The reason printed beside a test of the PostgreSQL server itself, skipped without one. */
export const NEEDS_DATABASE_URL = "needs a PostgreSQL server: set DATABASE_URL";

/**
 * skipUnless skips each test of the enclosing describe block (or file) unless `condition` holds, with
 * `reason` printed beside the test's name: vitest prints the reason of a skip at run time, never one
 * for `it.skipIf`. The block's beforeAll and afterAll still run, so they check the condition too.
 */
export function skipUnless(condition: unknown, reason: string): void {
  beforeEach(({ skip }) => skip(!condition, reason));
}

/** itOnServer is `it` for a race between concurrent transactions, skipped on PGlite with the reason printed. */
export function itOnServer(name: string, fn: () => Promise<void>, timeout?: number): void {
  it(
    name,
    async ({ skip }) => {
      skip(singleConnectionDatabase, "needs a PostgreSQL server (DATABASE_URL): PGlite runs one transaction at a time");
      await fn();
    },
    timeout,
  );
}

/** Registers every endpoint, gateway and subscription, as the generated entrypoint does. */
async function loadApp(): Promise<void> {
  const { appRoot, genDirOf } = await import("./model/layout.mjs");
  const { TEST_REGISTRATIONS } = await import("./codegen/generate");
  await import(/* @vite-ignore */ path.join(genDirOf(appRoot), TEST_REGISTRATIONS));
}

/** Serves every endpoint of the app in-process on 127.0.0.1:<free port>, exactly as `npm start` does. */
export async function startTestServer(): Promise<TestServer> {
  requireLocal("startTestServer");
  await loadApp();
  const { startLocalServer } = await import("./runtime/gateway/serve");
  return startLocalServer(0);
}

/** Reply is an HTTP answer with its body read: `body` is the parsed JSON (null when the body is empty or not JSON). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads an untyped answer loosely, or names T
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** CallOptions shape one request: a JSON body, a bearer token, more headers. */
export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/** The app served in-process for one describe block (see useTestServer). */
export interface TestApp {
  /** The server's base URL; valid inside tests and hooks. */
  readonly baseUrl: string;
  /** Sends one request as an API client would (redirects not followed) and reads the answer. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as Reply
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<Reply<T>>;
  /** Sends the same request and gives back the answer unread, for tests of its stream or status alone. */
  send(method: string, path: string, options?: CallOptions): Promise<Response>;
}

/**
 * useTestServer serves the app for the enclosing describe block: it starts the server before the
 * block's tests and closes it after them, so a test file holds no set-up or tear-down of its own.
 */
export function useTestServer(): TestApp {
  let server: TestServer | null = null;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
    server = null;
  });
  const app: TestApp = {
    get baseUrl(): string {
      if (server === null) throw new Error("useTestServer: the server runs only inside the describe block's tests and hooks");
      return server.baseUrl;
    },
    send(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.body !== undefined) headers["Content-Type"] ??= "application/json";
      if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
      return fetch(app.baseUrl + path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: "manual",
      });
    },
    async call(method, path, options = {}) {
      const resp = await app.send(method, path, options);
      const text = await resp.text();
      return { status: resp.status, headers: resp.headers, body: parseJsonOrNull(text) as never, text };
    },
  };
  return app;
}

function parseJsonOrNull(text: string): unknown {
  try {
    return text === "" ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** Waits until every message published on `topic` (or on any topic) has been handled or dropped. */
export async function drainTopic(topic?: string): Promise<void> {
  requireLocal("drainTopic");
  const { pubsubTestHooks } = await import("./runtime/pubsub");
  await pubsubTestHooks.drain(topic);
}

/** Delivers the next message published on `topic` several times (a forced redelivery). */
export async function duplicateNextMessage(topic: string, opts: { copies: number; concurrent: boolean }): Promise<void> {
  requireLocal("duplicateNextMessage");
  const { pubsubTestHooks } = await import("./runtime/pubsub");
  pubsubTestHooks.duplicateNext(topic, opts);
}

/** Scales every subscription's retry backoff (0.001 turns 10 s into 10 ms). */
export async function setRetryBackoffScale(factor: number): Promise<void> {
  requireLocal("setRetryBackoffScale");
  const { pubsubTestHooks } = await import("./runtime/pubsub");
  pubsubTestHooks.setBackoffScale(factor);
}

/** Runs a cron job now, by its id, through the runtime's call path. */
export async function runCronJob(id: string): Promise<void> {
  requireLocal("runCronJob");
  await loadApp();
  const { runCronJob: run } = await import("./runtime/cron");
  await run(id);
}

/**
 * The keys a cache cluster holds in this test run (as the keyspace wrote them, without the prefix),
 * each with the milliseconds it has left; `prefix` is where they really are (`test-<run>/<cluster>/`),
 * in Redis with REDIS_URL, else in the in-process store.
 */
export async function cacheClusterKeys(cluster: string): Promise<{ prefix: string; keys: { key: string; ttlMs: number }[] }> {
  requireLocal("cacheClusterKeys");
  const { clusterKeys } = await import("./runtime/cache");
  return clusterKeys(cluster);
}

/** Awaits a promise that must fail with an APIError and returns that error (both runtimes). */
export async function rejection(promise: Promise<unknown>): Promise<APIError> {
  const err = await promise.then(
    () => {
      throw new Error("expected an APIError, but the call succeeded");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

/** Asserts that a call fails with an APIError of this code and message (both runtimes). */
export async function expectAPIError(promise: Promise<unknown>, code: ErrCode, message: string | RegExp): Promise<void> {
  const err = await rejection(promise);
  expect(err.code).toBe(code);
  expect(err.message).toMatch(message);
}

/** An HTTP answer: a fetch Response, or its status and parsed JSON body. */
export type HttpAnswer = Response | { status: number; body: unknown };

/**
 * Asserts an HTTP error answer: its status and Encore's error body {code, message, details}. The body
 * also carries internal_message (null or a string) exactly when ENCORE_API_INCLUDE_INTERNAL_MESSAGE is
 * on, as under `encore run` and by default here; deployed apps leave it out. So one assertion holds in both.
 */
export async function expectErrorResponse(
  answer: HttpAnswer,
  status: number,
  expected: { code: ErrCode | `${ErrCode}`; message: string; details?: unknown },
): Promise<void> {
  const body = (answer instanceof Response ? await answer.json() : answer.body) as Record<string, unknown>;
  const { internal_message, ...rest } = body;
  expect({ status: answer.status, body: rest }).toEqual({
    status,
    body: { code: expected.code, message: expected.message, details: expected.details ?? null },
  });
  expect("internal_message" in body, "internal_message present as ENCORE_API_INCLUDE_INTERNAL_MESSAGE says").toBe(includeInternalMessage());
  if (internal_message !== undefined) expect(internal_message === null || typeof internal_message === "string").toBe(true);
}

/**
 * captureLogs holds back, until the current test ends, the log lines it names (the warnings and errors
 * a fault the test injects must cause) and fails the test if one never came; `lines` has them for
 * closer assertions. Lines it does not name still print, and a failing test prints the held ones too.
 */
export function captureLogs(...expected: ExpectedLog[]): CapturedLogs {
  // Under `encore test` Encore's native logger writes to stderr itself: nothing to hold back or check.
  if (!localRuntime) return { lines: [] };
  const capture = openCapture(expected);
  onTestFinished(({ task }) => {
    const absent = capture.end(task.result?.state === "fail");
    if (absent !== null) throw new Error(absent);
  });
  return capture.logs;
}

/** The warning the runtime logs when `subscription`'s handler fails with `err` and its message will be redelivered. */
export function redeliveryWarning(subscription: string, err: string | RegExp): ExpectedLog {
  return { level: "WRN", msg: "subscription handler failed, message will be redelivered", fields: { subscription, err } };
}
