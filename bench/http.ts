// `npm run bench`: starts the app as `npm start` does (embedded PGlite, or the server named by
// DATABASE_URL), then measures shorten, resolve and stats over loopback HTTP and prints the figures.
// Bounded: a fixed number of requests per phase.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startApp } from "../local/e2e/spawn-app";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SHORTEN = Number(process.env.BENCH_SHORTEN ?? 200);
const RESOLVES = Number(process.env.BENCH_RESOLVES ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface Phase {
  name: string;
  requests: number;
  seconds: number;
  latenciesMs: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `total` requests with `concurrency` in flight; every response must have status `expect`. */
async function phase(name: string, total: number, concurrency: number, send: (i: number) => Promise<Response>, expect = 200): Promise<Phase> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const res = await send(i);
        await res.arrayBuffer();
        if (res.status !== expect) throw new Error(`${name}: request ${i} answered ${res.status}`);
        latenciesMs.push(performance.now() - t);
      }
    }),
  );
  return { name, requests: total, seconds: (performance.now() - started) / 1000, latenciesMs: latenciesMs.sort((a, b) => a - b) };
}

function report(p: Phase, concurrency: number): string {
  const f = (x: number) => x.toFixed(2).padStart(8);
  const rate = (p.requests / p.seconds).toFixed(0).padStart(7);
  return `${p.name.padEnd(22)} ${String(p.requests).padStart(6)} ${String(concurrency).padStart(4)} ${rate} ${f(percentile(p.latenciesMs, 50))} ${f(percentile(p.latenciesMs, 95))} ${f(percentile(p.latenciesMs, 99))}`;
}

async function main(): Promise<void> {
  const engine = process.env.DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  const app = await startApp(appRoot, { JWTSecret: "bench-secret-bench-secret-bench-secret!!", LOG_LEVEL: "error" });
  try {
    const base = app.baseUrl;
    const signup = await fetch(`${base}/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: "correct horse battery" }),
    });
    if (signup.status !== 200) throw new Error(`signup answered ${signup.status}: ${await signup.text()}`);
    const { token } = (await signup.json()) as { token: string };
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };

    const codes: string[] = [];
    const results: [Phase, number][] = [];
    results.push([
      await phase("POST /shorten", SHORTEN, 4, async (i) => {
        const res = await fetch(`${base}/shorten`, { method: "POST", headers: auth, body: JSON.stringify({ url: `https://example.com/page/${i}` }) });
        if (res.status === 200) codes.push(((await res.clone().json()) as { code: string }).code);
        return res;
      }),
      4,
    ]);
    results.push([await phase("GET /:code (JSON)", RESOLVES, CONCURRENCY, (i) => fetch(`${base}/${codes[i % codes.length]}`)), CONCURRENCY]);
    results.push([
      await phase("GET /:code (browser)", RESOLVES, CONCURRENCY, (i) => fetch(`${base}/${codes[i % codes.length]}`, { headers: { Accept: "text/html" }, redirect: "manual" }), 302),
      CONCURRENCY,
    ]);
    results.push([await phase("GET /:code/stats", RESOLVES, CONCURRENCY, (i) => fetch(`${base}/${codes[i % codes.length]}/stats`)), CONCURRENCY]);

    console.log(`engine: ${engine}; loopback HTTP; Node ${process.version}`);
    console.log(`${"phase".padEnd(22)} ${"reqs".padStart(6)} ${"conc".padStart(4)} ${"req/s".padStart(7)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
    for (const [p, c] of results) console.log(report(p, c));
  } finally {
    await app.stop();
  }
}

await main();
