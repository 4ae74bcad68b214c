// Traces outlive a restart of `npm start`, a clean stop or kill -9 alike: the dashboard of the next
// run lists them, filters them and opens them, from <data dir>/traces/.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read untyped */
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, it } from "vitest";
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { freshAppState, removeAppState, startApp, type SpawnedApp } from "./spawn-app";

const state = freshAppState();
let app: SpawnedApp | null = null;

afterAll(async () => {
  await app?.stop();
  await removeAppState(state);
});

const json = async (url: string): Promise<any> => (await fetch(url)).json();

/** Calls GET /<code>/stats for a code nobody has: a 404 whose trace is easy to find by its text. */
async function tracedCall(baseUrl: string, code: string): Promise<string> {
  const res = await fetch(`${baseUrl}/${code}/stats`);
  expect(res.status).toBe(404);
  return res.headers.get("x-encore-trace-id")!;
}

it("lists, filters and opens the traces of earlier runs after a stop and after kill -9", async () => {
  app = await startApp(appRootDir, {}, state);
  const first = await tracedCall(app.baseUrl, "kept-across-stop");
  await expect.poll(async () => (await json(`${app!.dashUrl}/api/traces`)).map((t: any) => t.traceId)).toContain(first);
  const before = (await json(`${app.dashUrl}/api/traces?q=kept-across-stop`))[0];
  await app.stop();

  app = await startApp(appRootDir, {}, state);
  expect(fs.readdirSync(path.join(state.dataDir, "traces")).length).toBeGreaterThan(0);
  const listed = await json(`${app.dashUrl}/api/traces?q=kept-across-stop&status=4xx`);
  expect(listed).toEqual([before]);
  const opened = await json(`${app.dashUrl}/api/traces/${first}`);
  expect(opened.trace.spans[0]).toMatchObject({ service: "url", endpoint: "stats", responseStatus: 404 });

  // kill -9: a trace finished a moment before is on disk already (written within a second).
  const second = await tracedCall(app.baseUrl, "kept-across-kill");
  await sleep(1500);
  await app.kill();
  app = await startApp(appRootDir, {}, state);
  const after = (await json(`${app.dashUrl}/api/traces`)).map((t: any) => t.traceId);
  expect(after).toEqual(expect.arrayContaining([first, second]));
}, 180_000);
