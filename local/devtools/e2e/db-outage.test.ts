// The PostgreSQL server dropping the app's connections under load, twice, then refusing them for 5 s
// (ALLOW_CONNECTIONS false on the app's own databases: the shared server is never stopped). The
// process must keep serving, answer 503 unavailable meanwhile (never 500, never 401 for a valid
// token), recover by itself within 2 s, and lose nothing it acknowledged.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { NEEDS_DATABASE_URL, skipUnless } from "../../testing";
import { freshAppState, removeAppState, startApp, type AppState, type SpawnedApp } from "./spawn-app";

const serverUrl = process.env.DATABASE_URL;
const CLIENTS = 10;
const ENV = { JWTSecret: "outage-test-secret-outage-test-secret-32", LOG_LEVEL: "error" };

let state: AppState;
let app: SpawnedApp;
let admin: pg.Client;

async function onEachDatabase(sql: (db: string) => string): Promise<void> {
  for (const name of ["url", "auth", "analytics"]) await admin.query(sql(`${state.dbPrefix}${name}`));
}

const terminate = () =>
  onEachDatabase((db) => `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db}' AND pid <> pg_backend_pid()`);
const allowConnections = (allow: boolean) => onEachDatabase((db) => `ALTER DATABASE "${db}" ALLOW_CONNECTIONS ${allow}`);

skipUnless(serverUrl, NEEDS_DATABASE_URL);

beforeAll(async () => {
  if (!serverUrl) return;
  state = freshAppState();
  app = await startApp(appRootDir, ENV, state);
  admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
}, 600_000);

afterAll(async () => {
  if (!serverUrl) return;
  await allowConnections(true).catch(() => {});
  await admin.end();
  expect(await app.stop()).toBe(0);
  await removeAppState(state);
}, 120_000);

it("keeps serving through dropped connections and a 5 s refusal, answering 503 unavailable meanwhile", async () => {
  const base = app.baseUrl;
  const signup = await fetch(`${base}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `outage-${Date.now()}@example.com`, password: "correct horse battery" }),
  });
  const { token } = (await signup.json()) as { token: string };
  const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const first = await fetch(`${base}/shorten`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ url: "https://example.com/outage" }),
  });
  const { code } = (await first.json()) as { code: string };

  const statuses = new Map<number, number>();
  const unavailableMessages = new Set<string>();
  const failures: string[] = [];
  const acknowledgedLinks: string[] = [];
  let acknowledgedClicks = 0;
  let restoredAt = Infinity;
  let firstSuccessAfterRestore = Infinity;
  let running = true;

  const client = async (n: number) => {
    for (let i = 0; running; i++) {
      const kind = (n + i) % 3;
      const resp = await (
        kind === 0
          ? fetch(`${base}/shorten`, { method: "POST", headers: auth, body: JSON.stringify({ url: `https://example.com/o/${n}/${i}` }) })
          : fetch(kind === 1 ? `${base}/${code}` : `${base}/${code}/stats`)
      ).catch((err: Error) => {
        failures.push(`${err.message}: ${(err.cause as Error | undefined)?.message}`);
        return null;
      });
      if (resp === null) continue;
      statuses.set(resp.status, (statuses.get(resp.status) ?? 0) + 1);
      const body = (await resp.json()) as { code?: string; message?: string };
      if (resp.status === 503) unavailableMessages.add(`${body.code}: ${body.message}`);
      if (resp.status === 200) {
        if (kind === 0) acknowledgedLinks.push(body.code!);
        if (kind === 1) acknowledgedClicks++;
        if (Date.now() >= restoredAt) firstSuccessAfterRestore = Math.min(firstSuccessAfterRestore, Date.now());
      } else {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

  await sleep(2_000);
  await terminate();
  await sleep(2_000);
  await terminate();
  await sleep(2_000);
  await allowConnections(false);
  await terminate();
  await sleep(5_000);
  await allowConnections(true);
  restoredAt = Date.now();
  await sleep(4_000);
  running = false;
  await load;

  const errors = app
    .output()
    .split("\n")
    .filter((l) => / ERR |Error|error/.test(l))
    .slice(0, 12);
  const summary = JSON.stringify({
    statuses: Object.fromEntries(statuses),
    unavailableMessages: [...unavailableMessages],
    errors,
    failures: failures.slice(0, 3),
  });
  expect(failures, summary).toEqual([]);
  expect(statuses.get(500) ?? 0, summary).toBe(0);
  expect(statuses.get(401) ?? 0, summary).toBe(0);
  expect(statuses.get(503) ?? 0, summary).toBeGreaterThan(0);
  expect(
    [...statuses.keys()].filter((s) => s !== 200 && s !== 503),
    summary,
  ).toEqual([]);
  for (const m of unavailableMessages) expect(m).toMatch(/^unavailable: database (url|auth|analytics) is unavailable, please retry$/);
  expect(firstSuccessAfterRestore - restoredAt, summary).toBeLessThan(2_000);

  // Nothing acknowledged was lost.
  for (const link of acknowledgedLinks) expect((await fetch(`${base}/${link}/stats`)).status).toBe(200);
  const { clicks } = (await (await fetch(`${base}/${code}/stats`)).json()) as { clicks: number };
  expect(clicks).toBeGreaterThanOrEqual(acknowledgedClicks);
}, 120_000);
