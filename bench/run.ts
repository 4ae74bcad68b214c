// `npm run bench`: the app as `npm start` runs it (embedded PGlite, or the server DATABASE_URL names)
// against a bare node:http server, over loopback, with autocannon; on a server also against bare
// node:http + pg doing the same database work, and group-committing clicks (bare-pg-server.ts); each
// phase in rounds, the references and the app taking turns (rounds.ts);
// then tracing's cost, the uniform resolves with tracing on and off (tracing-cost.ts), and the
// memory `npm start` holds at idle (idle-rss.ts).
// After every phase and round the stored click total must equal the successful resolves so far.
// Any other environment variable reaches the app unchanged.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { databaseUrl, freshAppState, removeAppState, startApp, type AppState, type SpawnedApp } from "../local";
import { phaseSeconds, runPhase, type PhaseResult, type PhaseSpec } from "./load";
import { appPhases, signUp, storedClicks, uniformResolves } from "./phases";
import { formatTable, type TableRow } from "./table";
import { benchCodes, seedLinks } from "./seed-links";
import { formatTracing, measureRound, roundOrder, tracingEnv, type TracingRound } from "./tracing-cost";
import { formatIdleRss, measureIdleRss } from "./idle-rss";
import { combineRounds, roundsFromEnv, turnOrder } from "./rounds";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(appRoot, "node_modules", ".bin", "tsx");
const LINKS = Number(process.env.BENCH_LINKS ?? 100_000);
const TRACE_ROUNDS = Number(process.env.BENCH_TRACE_ROUNDS ?? 6);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const ROUNDS = roundsFromEnv();
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

/** One run of a phase's round: the bare server, a bare node:http + pg server, or the app. */
interface Step {
  kind: "bare" | "barePg" | "batchedPg" | "app";
  spec: PhaseSpec;
}

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
      // A phase sent from one client compares with references sent from one client.
      const clients = phase.connections === 1 ? ", one client" : "";
      /** The phase on a bare node:http + pg server, if there is one and it does this phase. */
      const referenceStep = (kind: Step["kind"], server: typeof barePg, does: string | undefined): Step[] =>
        server && does ? [{ kind, spec: { ...phase, name: `bare node:http + pg, ${does}${clients}`, url: server.url } }] : [];
      const steps: Step[] = [
        {
          kind: "bare",
          spec: { name: `bare node:http, constant JSON${clients}`, url: bare.url, expect: 200, connections: phase.connections },
        },
        ...referenceStep("barePg", barePg, phase.onBarePg),
        ...referenceStep("batchedPg", batchedPg, phase.onBatchedPg),
        { kind: "app", spec: phase },
      ];
      const results = new Map<Step["kind"], PhaseResult[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const { kind, spec } of turnOrder(steps, round)) {
          const result = await runPhase(spec, phaseSeconds / ROUNDS);
          // A reference's clicks go to a copy of the links: the app's stored total must not move.
          await check(app.baseUrl, result, kind === "app" && phase.clicks);
          results.set(kind, [...(results.get(kind) ?? []), result]);
        }
      }
      const of = (kind: Step["kind"]) => (results.has(kind) ? combineRounds(results.get(kind)!) : undefined);
      const baseline = of("bare")!;
      const reference = of("barePg");
      const batched = of("batchedPg");
      rows.push({ result: baseline });
      if (reference) rows.push({ result: reference, bare: baseline });
      if (batched) rows.push({ result: batched, bare: baseline });
      rows.push({ result: of("app")!, bare: baseline, barePg: reference, batchedPg: batched });
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
    console.log(
      `engine: ${engine}; ${LINKS} links; ${ROUNDS} rounds a phase; loopback; Node ${process.version}; ${os.cpus().length} × ${os.cpus()[0]?.model}`,
    );
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
