// Test helpers for the url service; in __tests__ so Encore does not bundle them.
import { randomInt, randomUUID } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, expect } from "vitest";
import { url } from "~encore/clients";
import { singleConnectionDatabase, useTestServer, type ExpectedLog } from "../../local/testing";
import { db } from "../db";
import type { Visit } from "../visit";

/** User is auth data for a caller nobody else uses (tests share one database per run). */
export interface User {
  userID: string;
  email: string;
}

/** The warning url/code.ts logs for a code already taken (and which attempt it was), for captureLogs. */
export function codeClash(fields: { code: string; attempt?: number }): ExpectedLog {
  return { level: "WRN", msg: "short code clash, retrying with another code", fields };
}

/** newUser makes auth data for a fresh caller; userID is a decimal string like users.id. */
export function newUser(): User {
  return { userID: String(randomInt(1e9, 2 ** 47)), email: `${randomUUID()}@example.com` };
}

/**
 * visit is a visit as describeVisit reads one: by default a desktop Chrome on Linux with no referrer,
 * from an unknown country, through the link, with no campaign and no visitor to count; `fields` change it.
 */
export function visit(fields: Partial<Visit> = {}): Visit {
  return {
    referrerHost: "",
    device: "desktop",
    browser: "Chrome",
    os: "Linux",
    country: "ZZ",
    source: "link",
    campaign: "",
    visitor: null,
    ...fields,
  };
}

/** DIRECT_VISIT is a desktop browser's visit with no referrer. */
export const DIRECT_VISIT: Visit = visit();

/** shortenAs calls POST /shorten through the generated client, with validation and auth as over HTTP. */
export function shortenAs(user: User, target: string) {
  return url.shorten({ url: target }, { authData: user });
}

/** linksOf counts the rows a caller created. */
export async function linksOf(user: User): Promise<number> {
  const row = await db.queryRow<{ n: number }>`SELECT COUNT(*)::int AS n FROM urls WHERE creator = ${user.userID}`;
  return row?.n ?? 0;
}

/** signUp creates a real account over HTTP and returns its bearer token. */
export async function signUp(baseUrl: string): Promise<string> {
  const resp = await fetch(`${baseUrl}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `${randomUUID()}@example.com`, password: "correct horse battery" }),
  });
  expect(resp.status).toBe(200);
  const { token } = (await resp.json()) as { token: string };
  return token;
}

/** TestApi is the test server of a file's HTTP tests (useTestServer), with signed-up users. */
export interface TestApi {
  readonly baseUrl: string;
  /** A bearer token per user, in sign-up order. */
  tokens: string[];
  /** One request as a JSON client sends it: Accept application/json, the bearer token and the JSON body when given, then any extra headers. */
  call(method: string, path: string, token?: string, body?: unknown, extraHeaders?: Record<string, string>): Promise<Response>;
}

/** serveApiForThisFile serves the app for the file's tests (useTestServer) and signs up `users` users before them. */
export function serveApiForThisFile(users: number): TestApi {
  const server = useTestServer();
  const api: TestApi = {
    get baseUrl() {
      return server.baseUrl;
    },
    tokens: [],
    call: (method, path, token, body, extraHeaders) =>
      server.send(method, path, { token, body, headers: { Accept: "application/json", ...extraHeaders } }),
  };
  beforeAll(async () => {
    api.tokens = await Promise.all(Array.from({ length: users }, () => signUp(server.baseUrl)));
  });
  return api;
}

/** An advisory lock key for test files that run the stale-link cleanup. */
const CLEANUP_TURN_LOCK = 74_110_001;

/**
 * takeCleanupTurn makes the test files that run the cleanup take turns: the cleanup deletes every
 * stale link in the database, and on a shared server database another file's rows would change its
 * counts. Embedded PGlite is private to each test process and needs no turn (and holding its only
 * connection would block the test itself). Returns the function that ends the turn.
 */
async function takeCleanupTurn(): Promise<() => Promise<void>> {
  if (singleConnectionDatabase) return async () => {};
  const conn = await db.acquire();
  await conn.exec`SELECT pg_advisory_lock(${CLEANUP_TURN_LOCK})`;
  return async () => {
    await conn.exec`SELECT pg_advisory_unlock(${CLEANUP_TURN_LOCK})`;
    await conn.close();
  };
}

/** holdCleanupTurnForThisFile takes the cleanup turn before the file's tests and ends it after them. */
export function holdCleanupTurnForThisFile(): void {
  let endTurn: () => Promise<void>;
  beforeAll(async () => {
    endTurn = await takeCleanupTurn();
  });
  afterAll(() => endTurn());
}

/**
 * Sends a request to `url` through `agent` as an API client, a GET unless `init` names another method
 * and a body; resolves with the status once the body is read.
 */
export function getStatus(
  url: string,
  headers: Record<string, string>,
  agent: http.Agent,
  init: { method?: string; body?: string; signal?: AbortSignal } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .request(
        url,
        { method: init.method ?? "GET", agent, signal: init.signal, headers: { Accept: "application/json", ...headers } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode!));
        },
      )
      .on("error", reject)
      .end(init.body);
  });
}
