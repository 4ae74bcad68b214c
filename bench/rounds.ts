// Each phase is measured in rounds in which the references and the app take turns (the references
// first, then the app first, and so on): a machine whose speed drifts from minute to minute then slows
// both sides alike, and one round's hiccup is outvoted by the others.
import type { PhaseResult } from "./load";

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** How many rounds each phase is measured in (BENCH_ROUNDS, default 3). */
export function roundsFromEnv(raw = process.env.BENCH_ROUNDS ?? "3"): number {
  const rounds = Number(raw);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a whole number ≥ 1, not ${raw}`);
  return rounds;
}

/** A round's steps: in the given order in even rounds, reversed in odd ones, so that neither side always goes first. */
export function turnOrder<T>(steps: readonly T[], round: number): T[] {
  return round % 2 === 0 ? [...steps] : [...steps].reverse();
}

/** One figure from a phase's rounds: requests and answers summed, throughput the mean of the rounds', p50 and p99 their medians. */
export function combineRounds(rounds: PhaseResult[]): PhaseResult {
  return {
    name: rounds[0].name,
    requests: rounds.reduce((n, r) => n + r.requests, 0),
    expected: rounds.reduce((n, r) => n + r.expected, 0),
    unexpected: rounds
      .map((r) => r.unexpected)
      .filter(Boolean)
      .join("; "),
    perSecond: mean(rounds.map((r) => r.perSecond)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
  };
}
