// The benchmark's printed table: rows come in pairs, the bare server and then the phase measured
// right after it, and each phase's ratio refers to its own bare row.
import type { PhaseResult } from "./load";

/** Formats [bare, phase, bare, phase, ...] as a Markdown table, ready to paste into bench/README.md. */
export function formatTable(results: PhaseResult[]): string {
  const rows = results.map((r, i) => [
    r.name,
    r.requests.toLocaleString("en-US"),
    Math.round(r.perSecond).toLocaleString("en-US"),
    `${r.p50} ms`,
    `${r.p99} ms`,
    i % 2 === 1 ? `${((100 * r.perSecond) / results[i - 1].perSecond).toFixed(1)} %` : "",
  ]);
  const head = ["phase", "requests", "req/s", "p50", "p99", "of bare"];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}
