// `npm run bench`: the app as `npm start` runs it (embedded PGlite, or the server DATABASE_URL names)
// against a bare node:http server measured right before each phase, over loopback, with
// autocannon. After every phase the stored click total must equal the successful resolves so far.
// Any other environment variable reaches the app unchanged (e.g. to switch a tracer on or off).
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshAppState, removeAppState, startApp, type SpawnedApp } from "../local";
import { runPhase, type PhaseResult, type PhaseSpec } from "./load";
import { formatTable } from "./table";
import { benchCodes, seedLinks } from "./seed-links";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(appRoot, "node_modules", ".bin", "tsx");
const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
/** The bench measures speed, not the rate limits: shortening runs far above the default 120 a minute. */
const appEnv = {
  JWTSecret: "bench-secret-bench-secret-bench-secret!!",
  RATE_LIMIT_SHORTEN: process.env.RATE_LIMIT_SHORTEN ?? "1000000/1m",
  RATE_LIMIT_SHORTEN_PER_USER: process.env.RATE_LIMIT_SHORTEN_PER_USER ?? "1000000/1m",
};

/** Starts the bare server in its own process; resolves with its URL and a stop function. */
async function startBare(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(tsx, [path.join(appRoot, "bench", "bare-server.ts")], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: "correct horse battery" }),
  });
  if (res.status !== 200) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

async function storedClicks(base: string): Promise<number> {
  const res = await fetch(`${base}/analytics/summary`);
  if (res.status !== 200) throw new Error(`summary answered ${res.status}: ${await res.text()}`);
  return Number(((await res.json()) as { totalClicks: number }).totalClicks);
}

/** The app's phases, in order; `clicks` says whether a phase's expected answers are clicks. */
function appPhases(base: string, codes: string[], token: string): (PhaseSpec & { clicks: boolean })[] {
  const random = () => codes[Math.floor(Math.random() * codes.length)];
  let shortened = 0;
  return [
    { name: "GET /:code, uniform", url: base, expect: 200, clicks: true, next: () => ({ path: `/${random()}` }) },
    { name: "GET /:code, one hot link", url: `${base}/${codes[0]}`, expect: 200, clicks: true },
    {
      name: "GET /:code, browser (302)",
      url: base,
      expect: 302,
      clicks: true,
      headers: { Accept: "text/html,application/xhtml+xml" },
      next: () => ({ path: `/${random()}` }),
    },
    { name: "GET /:code/stats", url: base, expect: 200, clicks: false, next: () => ({ path: `/${random()}/stats` }) },
    {
      name: "POST /shorten",
      url: `${base}/shorten`,
      method: "POST",
      expect: 200,
      clicks: false,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      next: () => ({ path: "/shorten", body: JSON.stringify({ url: `https://example.com/bench/${shortened++}` }) }),
    },
  ];
}

/** Starts the app, stops it once migrated, seeds the links and starts it again. */
async function seededApp(state: ReturnType<typeof freshAppState>, codes: string[]): Promise<SpawnedApp> {
  await (await startApp(appRoot, appEnv, state)).stop();
  await seedLinks(state, codes);
  return startApp(appRoot, appEnv, state);
}

async function main(): Promise<number> {
  const engine = process.env.DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  const codes = benchCodes(LINKS);
  const state = freshAppState();
  const bare = await startBare();
  let app: SpawnedApp | null = null;
  const results: PhaseResult[] = [];
  const problems: string[] = [];
  try {
    app = await seededApp(state, codes);
    const token = await signUp(app.baseUrl);
    let clicks = 0;
    for (const phase of appPhases(app.baseUrl, codes, token)) {
      // The bare server right before each phase: the machine's other load changes from minute to minute.
      const baseline = await runPhase({ name: "bare node:http, constant JSON", url: bare.url, expect: 200 });
      const result = await runPhase(phase);
      results.push(baseline, result);
      if (result.unexpected) problems.push(`${phase.name}: unexpected answers (${result.unexpected})`);
      if (phase.clicks) clicks += result.expected;
      const stored = await storedClicks(app.baseUrl);
      if (stored !== clicks) problems.push(`after ${phase.name}: ${stored} clicks stored, ${clicks} successful resolves`);
    }
    console.log(`engine: ${engine}; ${LINKS} links; loopback; Node ${process.version}; ${os.cpus().length} × ${os.cpus()[0]?.model}`);
    console.log(formatTable(results));
    console.log(
      problems.length ? `FAILED:\n  ${problems.join("\n  ")}` : `click total equals successful resolves after every phase (${clicks})`,
    );
    return problems.length ? 1 : 0;
  } finally {
    bare.stop();
    await app?.stop();
    await removeAppState(state);
  }
}

process.exitCode = await main();
