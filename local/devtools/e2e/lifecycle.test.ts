// Starting and stopping `npm start` as a user does: one process per data directory (a stale lock is
// taken over), SIGTERM to npm's own PID frees the port within 5 s, and a taken port gets one clear line.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { freshAppState, removeAppState, startApp, type AppState, type SpawnedApp } from "./spawn-app";

const ENV = { JWTSecret: "lifecycle-test-secret-lifecycle-test-32b", LOG_LEVEL: "error" };

let state: AppState;
let app: SpawnedApp;

beforeAll(async () => {
  state = freshAppState();
  // A lock left by a process that no longer exists (a kill -9) must not stop anyone.
  fs.writeFileSync(path.join(state.dataDir, "npm-start.lock"), JSON.stringify({ pid: 2 ** 22 + 1, port: 4000 }));
  app = await startApp(appRootDir, ENV, state);
}, 600_000);

afterAll(async () => {
  await app?.stop();
  await removeAppState(state);
}, 120_000);

/** Runs `npm start` to its exit on the given data, with extra environment. */
function npmStart(extra: Record<string, string>, onListening?: (child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["start", "--silent"], {
      cwd: appRootDir,
      env: {
        ...process.env,
        NODE_ENV: "development",
        ENCORE_LOCAL_DATA_DIR: state.dataDir,
        LOCAL_DB_NAME_PREFIX: state.dbPrefix,
        PORT: "0",
        ...ENV,
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (d: Buffer) => {
      output += d;
      if (onListening && /API listening on/.test(output)) {
        onListening(child);
        onListening = undefined;
      }
    };
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

it("refuses a second npm start on the same data, naming the first one's PID and port", async () => {
  const port = new URL(app.baseUrl).port;
  const second = await npmStart({});
  expect(second.code).toBe(1);
  expect(second.output).toMatch(new RegExp(`is in use by another npm start \\(pid \\d+, serving on port ${port}\\)`));
  expect((await fetch(`${app.baseUrl}/zzzzzz/stats`)).status).toBe(404);
}, 600_000);

it("answers a taken port with one line naming it and PORT", async () => {
  const other = freshAppState();
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const saved = state;
    state = other;
    const run = await npmStart({ PORT: String(port) }).finally(() => (state = saved));
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      `port ${port} on 127.0.0.1 is already in use (another npm start?): stop that process or choose another port, e.g. PORT=${port + 1} npm start`,
    );
    expect(run.output).not.toMatch(/\n\s+at /); // no stack trace
  } finally {
    blocker.close();
    await removeAppState(other);
  }
}, 600_000);

it("stops completely within 5 s of SIGTERM to npm's own PID", async () => {
  const other = freshAppState();
  const saved = state;
  state = other;
  let port = 0;
  let signalledAt = 0;
  try {
    const run = await npmStart({}, (child) => {
      signalledAt = Date.now();
      child.kill("SIGTERM");
    }).finally(() => (state = saved));
    port = Number(/API listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.output)![1]);
    expect(run.output).toContain("shutting down");
    // npm exited; the server must be gone too, not orphaned on its port.
    await new Promise((r) => setTimeout(r, Math.max(0, signalledAt + 5_000 - Date.now())));
    const refused = await fetch(`http://127.0.0.1:${port}/zzzzzz/stats`).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
    expect(fs.existsSync(path.join(other.dataDir, "npm-start.lock"))).toBe(false);
  } finally {
    await removeAppState(other);
  }
}, 600_000);
