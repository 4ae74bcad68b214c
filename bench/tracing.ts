// `npm run bench:tracing`: the tracer's cost on the resolve path. Starts the app twice as `npm start`
// does, with tracing on and with LOCAL_TRACE=0, and alternates equal rounds of GET /:code between
// them, so load from anything else on the machine falls on both alike. Prints each one's throughput,
// latency and server CPU time per request (read from the dashboard's status, so other processes'
// load does not count), and the ratios. Bounded: BENCH_ROUNDS rounds of BENCH_ROUND_REQUESTS each.
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startApp, type SpawnedApp } from "../local/index";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.BENCH_ROUND_REQUESTS ?? 1500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const LINKS = 20;

/** One GET over a kept-alive connection; resolves with the status once the body is read. */
function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      })
      .on("error", reject);
  });
}

interface Side {
  name: string;
  app: SpawnedApp;
  codes: string[];
  seconds: number;
  latenciesMs: number[];
  /** Server CPU time (user + system) spent in the measured rounds, µs. */
  cpuMicros: number;
}

/** The app process's CPU time so far, µs. */
async function cpu(side: Side): Promise<number> {
  const status = (await (await fetch(`${side.app.dashUrl}/api/status`)).json()) as { cpuUsage: { user: number; system: number } };
  return status.cpuUsage.user + status.cpuUsage.system;
}

async function prepare(name: string, env: Record<string, string>): Promise<Side> {
  const app = await startApp(appRoot, { JWTSecret: "bench-secret-bench-secret-bench-secret!!", LOG_LEVEL: "error", ...env });
  if (!app.dashUrl) throw new Error(`${name}: the dashboard did not start:\n${app.output()}`);
  const json = { "Content-Type": "application/json" };
  const signup = await fetch(`${app.baseUrl}/auth/signup`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: "correct horse battery" }),
  });
  if (signup.status !== 200) throw new Error(`${name}: signup answered ${signup.status}`);
  const { token } = (await signup.json()) as { token: string };
  const codes: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const res = await fetch(`${app.baseUrl}/shorten`, {
      method: "POST",
      headers: { ...json, Authorization: `Bearer ${token}` },
      body: JSON.stringify({ url: `https://example.com/${i}` }),
    });
    if (res.status !== 200) throw new Error(`${name}: shorten answered ${res.status}`);
    codes.push(((await res.json()) as { code: string }).code);
  }
  return { name, app, codes, seconds: 0, latenciesMs: [], cpuMicros: 0 };
}

async function round(side: Side): Promise<void> {
  let next = 0;
  // Fresh connections each round: the server closes the ones left idle while the other side ran.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const cpuBefore = await cpu(side);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < PER_ROUND) {
        const i = next++;
        const t = performance.now();
        const status = await get(agent, `${side.app.baseUrl}/${side.codes[i % side.codes.length]}`);
        if (status !== 200) throw new Error(`${side.name}: GET /:code answered ${status}`);
        side.latenciesMs.push(performance.now() - t);
      }
    }),
  );
  side.seconds += (performance.now() - started) / 1000;
  agent.destroy();
  side.cpuMicros += (await cpu(side)) - cpuBefore;
}

function line(s: Side): string {
  const sorted = [...s.latenciesMs].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2).padStart(8);
  const cpuPerReq = (s.cpuMicros / sorted.length).toFixed(0).padStart(10);
  return `${s.name.padEnd(14)} ${String(sorted.length).padStart(7)} ${(sorted.length / s.seconds).toFixed(0).padStart(7)} ${pct(50)} ${pct(99)} ${cpuPerReq}`;
}

const on = await prepare("tracing on", {});
const off = await prepare("tracing off", { LOCAL_TRACE: "0" });
try {
  // Warm both up, then alternate which side goes first so neither always follows the other.
  await round(on);
  await round(off);
  on.seconds = off.seconds = on.cpuMicros = off.cpuMicros = 0;
  on.latenciesMs = [];
  off.latenciesMs = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? [on, off] : [off, on]) await round(side);
  }
  const engine = process.env.DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  console.log(
    `GET /:code (JSON), ${ROUNDS} alternating rounds of ${PER_ROUND}, concurrency ${CONCURRENCY}; ${engine}; Node ${process.version}`,
  );
  console.log(
    `${"".padEnd(14)} ${"reqs".padStart(7)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"CPU µs/req".padStart(10)}`,
  );
  console.log(line(on));
  console.log(line(off));
  const ratio = on.latenciesMs.length / on.seconds / (off.latenciesMs.length / off.seconds);
  const cpuRatio = on.cpuMicros / on.latenciesMs.length / (off.cpuMicros / off.latenciesMs.length);
  console.log(
    `tracing on / off: throughput ${ratio.toFixed(3)} (cost ${((1 - ratio) * 100).toFixed(1)} %), server CPU per request ${cpuRatio.toFixed(3)}`,
  );
} finally {
  await on.app.stop();
  await off.app.stop();
}
