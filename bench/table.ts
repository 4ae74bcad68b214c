// The benchmark's printed table: each phase's throughput as a share of the bare node:http server measured
// right before it and, on a PostgreSQL server, of the bare node:http + pg server doing the same database work
// and, for clicks, of that server group-committing them.
import type { PhaseResult } from "./load";

/** One printed row: a result, and the rows its ratios refer to (none for a baseline row). */
export interface TableRow {
  result: PhaseResult;
  bare?: PhaseResult;
  barePg?: PhaseResult;
  batchedPg?: PhaseResult;
}

const share = (r: PhaseResult, of?: PhaseResult) => (of ? `${((100 * r.perSecond) / of.perSecond).toFixed(1)} %` : "");

/** Formats the rows as a Markdown table, ready to paste into bench/README.md. */
export function formatTable(rows: TableRow[]): string {
  const cells = rows.map(({ result: r, bare, barePg, batchedPg }) => [
    r.name,
    r.requests.toLocaleString("en-US"),
    Math.round(r.perSecond).toLocaleString("en-US"),
    `${r.p50} ms`,
    `${r.p99} ms`,
    share(r, bare),
    share(r, barePg),
    share(r, batchedPg),
  ]);
  const head = ["phase", "requests", "req/s", "p50", "p99", "of bare", "of bare + pg", "of batched bare + pg"];
  const line = (c: string[]) => `| ${c.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...cells.map(line)].join("\n");
}
