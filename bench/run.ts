// `npm run bench`: the app as `npm start` runs it (embedded PGlite, or the server DATABASE_URL names)
// against a bare node:http server measured right before each phase, over loopback, with autocannon;
// on a server also against bare node:http + pg doing the same database work, and group-committing
// clicks (bare-pg-server.ts);
// then tracing's cost, the uniform resolves with tracing on and off (tracing-cost.ts), and the
// memory `npm start` holds at idle (idle-rss.ts).
// After every phase and round the stored click total must equal the successful resolves so far.
// Any other environment variable reaches the app unchanged.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseUrl, freshAppState, removeAppState, startApp, type AppState, type SpawnedApp } from "../local";
import { runPhase, type PhaseResult } from "./load";
import { appPhases, signUp, storedClicks, uniformResolves } from "./phases";
import { formatTable, type TableRow } from "./table";
import { benchCodes, seedLinks } from "./seed-links";
import { formatTracing, measureRound, roundOrder, tracingEnv, type TracingRound } from "./tracing-cost";
import { formatIdleRss, measureIdleRss } from "./idle-rss";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(appRoot, "node_modules", ".bin", "tsx");
const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const TRACE_ROUNDS = Number(process.env.BENCH_TRACE_ROUNDS ?? 6);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
/**
 * The bench measures speed, not the rate limits: shortening runs far above the default 120 a minute.
 * Nor sessions: the one access token it signs up for must outlast all its phases, not 15 minutes.
 */
const appEnv = {
  JWTSecret: "bench-secret-bench-secret-bench-secret!!",
  ACCESS_TOKEN_TTL_SECONDS: "86400",
  RATE_LIMIT_SHORTEN: process.env.RATE_LIMIT_SHORTEN ?? "1000000/1m",
  RATE_LIMIT_SHORTEN_PER_USER: process.env.RATE_LIMIT_SHORTEN_PER_USER ?? "1000000/1m",
};

/** Starts a reference server of bench/ in its own process; resolves with its URL and a stop function. */
async function startServer(script: string, ...args: string[]): Promise<{ url: string; stop: () => void }> {
  const child = spawn(tsx, [path.join(appRoot, "bench", script), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

/** Starts the app, stops it once migrated, seeds the links and starts it again. */
async function seededApp(state: AppState, codes: string[]): Promise<SpawnedApp> {
  await (await startApp(appRoot, appEnv, state)).stop();
  await seedLinks(state, codes);
  return startApp(appRoot, appEnv, state);
}

async function main(): Promise<number> {
  const engine = process.env.DATABASE_URL ? "PostgreSQL server" : "embedded PGlite";
  const codes = benchCodes(LINKS);
  const state = freshAppState();
  const bare = await startServer("bare-server.ts");
  let barePg: Awaited<ReturnType<typeof startServer>> | null = null;
  let batchedPg: Awaited<ReturnType<typeof startServer>> | null = null;
  let app: SpawnedApp | null = null;
  const rows: TableRow[] = [];
  const problems: string[] = [];
  try {
    app = await seededApp(state, codes);
    if (state.databaseUrl) {
      const urlDb = databaseUrl(state.databaseUrl, `${state.dbPrefix}url`);
      barePg = await startServer("bare-pg-server.ts", urlDb);
      batchedPg = await startServer("bare-pg-server.ts", urlDb, "--group-commit");
    }
    const token = await signUp(app.baseUrl);
    let clicks = 0;
    /** Counts a phase's resolves, and notes unexpected answers and a stored click total that differs. */
    const check = async (base: string, result: PhaseResult, areClicks: boolean) => {
      if (result.unexpected) problems.push(`${result.name}: unexpected answers (${result.unexpected})`);
      if (areClicks) clicks += result.expected;
      const stored = await storedClicks(base);
      if (stored !== clicks) problems.push(`after ${result.name}: ${stored} clicks stored, ${clicks} successful resolves`);
    };
    /**
     * Warms a freshly started app up on uniform resolves (their clicks count like any others): for its
     * first seconds of load V8 is still compiling the hot code, on the cores the load shares.
     */
    const warmUp = async (target: SpawnedApp) =>
      check(target.baseUrl, await runPhase({ ...uniformResolves(target.baseUrl, codes), name: "warm-up" }, WARM_UP_SECONDS), true);
    await warmUp(app);
    for (const phase of appPhases(app.baseUrl, codes, token)) {
      // The bare server right before each phase: the machine's other load changes from minute to minute.
      // A phase sent from one client compares with references sent from one client.
      const clients = phase.connections === 1 ? ", one client" : "";
      const baseline = await runPhase({
        name: `bare node:http, constant JSON${clients}`,
        url: bare.url,
        expect: 200,
        connections: phase.connections,
      });
      rows.push({ result: baseline });
      /** Runs the phase on a bare node:http + pg server, if there is one and it does this phase. */
      const onReference = async (server: typeof barePg, does: string | undefined) => {
        if (!server || !does) return undefined;
        const reference = await runPhase({ ...phase, name: `bare node:http + pg, ${does}${clients}`, url: server.url });
        // Its clicks go to a copy of the links: the app's stored total must not move.
        await check(app!.baseUrl, reference, false);
        rows.push({ result: reference, bare: baseline });
        return reference;
      };
      const reference = await onReference(barePg, phase.onBarePg);
      const batched = await onReference(batchedPg, phase.onBatchedPg);
      const result = await runPhase(phase);
      rows.push({ result, bare: baseline, barePg: reference, batchedPg: batched });
      await check(app.baseUrl, result, phase.clicks);
    }
    await app.stop();
    const rounds: TracingRound[] = [];
    for (const side of roundOrder(TRACE_ROUNDS)) {
      app = await startApp(appRoot, { ...appEnv, ...tracingEnv(side) }, state);
      await warmUp(app);
      const round = await measureRound(app, side, uniformResolves(app.baseUrl, codes));
      rounds.push(round);
      await check(app.baseUrl, round.result, true);
      await app.stop();
    }
    console.log(`engine: ${engine}; ${LINKS} links; loopback; Node ${process.version}; ${os.cpus().length} × ${os.cpus()[0]?.model}`);
    console.log(formatTable(rows));
    console.log(`\nTracing's cost: ${TRACE_ROUNDS} alternating rounds, the app restarted on the same data for each`);
    console.log(formatTracing(rounds));
    console.log("\nMemory at idle:");
    console.log(formatIdleRss(await measureIdleRss(appRoot, appEnv)));
    console.log(
      problems.length
        ? `FAILED:\n  ${problems.join("\n  ")}`
        : `click total equals successful resolves after every phase and round (${clicks})`,
    );
    return problems.length ? 1 : 0;
  } finally {
    bare.stop();
    barePg?.stop();
    batchedPg?.stop();
    await app?.stop();
    await removeAppState(state);
  }
}

process.exitCode = await main();
