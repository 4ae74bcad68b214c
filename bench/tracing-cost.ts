// Tracing's cost on the resolve path, the last part of `npm run bench`: the uniform GET /:code phase
// again, with the app restarted on the same state with tracing on and with LOCAL_TRACE=0 in turn
// (on, off, off, on, on, off, ...), so the machine's other load and the data's warmth fall on both
// alike. Restarts rather than two apps side by side: embedded PGlite allows one process per data
// directory, and the server engine runs the same way so that its figures compare. Server CPU per
// request is the app process's own CPU time (the dashboard's /api/status), whatever else the machine runs.
import type { SpawnedApp } from "../local";
import { runPhase, type PhaseResult, type PhaseSpec } from "./load";
import { mean, median } from "./rounds";

export type Side = "on" | "off";

/** One round: the phase's figures and the app's CPU time per request over the phase, its two short warm-ups included (not the app's warm-up before it). */
export interface TracingRound {
  side: Side;
  result: PhaseResult;
  cpuMicrosPerRequest: number;
}

/** The sides of `rounds` rounds, on, off, off, on, on, off, ...: neither always goes first. */
export function roundOrder(rounds: number): Side[] {
  if (!Number.isInteger(rounds) || rounds < 2 || rounds % 2)
    throw new Error(`BENCH_TRACE_ROUNDS must be an even number ≥ 2, not ${rounds}`);
  return Array.from({ length: rounds }, (_, i) => (((i + 1) >> 1) % 2 === 0 ? "on" : "off"));
}

/** The environment that turns the app's tracer on or off, whatever this process's LOCAL_TRACE says. */
export function tracingEnv(side: Side): Record<string, string> {
  return { LOCAL_TRACE: side === "on" ? "1" : "0" };
}

/** The app's CPU time so far (user + system, µs) and whether it traces, from its dashboard. */
async function appStatus(app: SpawnedApp): Promise<{ cpuMicros: number; tracing: boolean }> {
  if (!app.dashUrl) throw new Error(`the dashboard did not start, so the app's CPU time is unknown:\n${app.output()}`);
  const status = (await (await fetch(`${app.dashUrl}/api/status`)).json()) as {
    cpuUsage: { user: number; system: number };
    tracing: { enabled: boolean };
  };
  return { cpuMicros: status.cpuUsage.user + status.cpuUsage.system, tracing: status.tracing.enabled };
}

/** Runs `spec` on an app started with tracingEnv(side), reading the app's CPU time around it. */
export async function measureRound(app: SpawnedApp, side: Side, spec: PhaseSpec): Promise<TracingRound> {
  const before = await appStatus(app);
  if (before.tracing !== (side === "on")) throw new Error(`asked for tracing ${side}, but the app says tracing enabled: ${before.tracing}`);
  const result = await runPhase({ ...spec, name: `${spec.name}, tracing ${side}` });
  const after = await appStatus(app);
  return { side, result, cpuMicrosPerRequest: (after.cpuMicros - before.cpuMicros) / result.requests };
}

/** Each side's figures over its rounds: mean throughput and CPU per request, median p50 and p99. */
function summarize(rounds: TracingRound[], side: Side) {
  const mine = rounds.filter((r) => r.side === side);
  return {
    perSecond: mean(mine.map((r) => r.result.perSecond)),
    p50: median(mine.map((r) => r.result.p50)),
    p99: median(mine.map((r) => r.result.p99)),
    cpu: mean(mine.map((r) => r.cpuMicrosPerRequest)),
  };
}

/** "0.931 (−6.9 %)": a ratio and the change it is. */
function ratio(a: number, b: number): string {
  const change = (a / b - 1) * 100;
  return `${(a / b).toFixed(3)} (${change < 0 ? "−" : "+"}${Math.abs(change).toFixed(1)} %)`;
}

/** A Markdown table of the rounds and of each side, then the on/off ratios. */
export function formatTracing(rounds: TracingRound[]): string {
  const on = summarize(rounds, "on");
  const off = summarize(rounds, "off");
  const int = (n: number) => Math.round(n).toLocaleString("en-US");
  const row = (name: string, requests: string, s: { perSecond: number; p50: number; p99: number; cpu: number }) =>
    `| ${name} | ${requests} | ${int(s.perSecond)} | ${s.p50} ms | ${s.p99} ms | ${int(s.cpu)} |`;
  return [
    "| round | requests | req/s | p50 | p99 | server CPU µs/req |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rounds.map((r, i) =>
      row(`${i + 1}: tracing ${r.side}`, r.result.requests.toLocaleString("en-US"), { ...r.result, cpu: r.cpuMicrosPerRequest }),
    ),
    row("**tracing on**", "", on),
    row("**tracing off**", "", off),
    "",
    `tracing on / off: throughput ${ratio(on.perSecond, off.perSecond)}, server CPU per request ${ratio(on.cpu, off.cpu)}`,
  ].join("\n");
}
