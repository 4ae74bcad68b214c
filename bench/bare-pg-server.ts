// The database-bound ceiling `npm run bench` compares against on a PostgreSQL server: node:http and pg
// with nothing in between, answering the stats SELECT the app runs, and a click as the simplest exact
// design would count it (one UPDATE ... RETURNING per request, the figure group commit is meant to beat).
// With --group-commit it counts clicks as the app does, through lib/group-commit.ts, but only on the
// links' rows: the figure the app's runtime and its click history are measured against.
// Clicks go to a copy of the links (bench_reference_urls), so the app's click total stays its own.
// Usage: tsx bench/bare-pg-server.ts <connection string of the app's url database> [--group-commit]
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { GroupCommit } from "../lib/group-commit";

// pg's default pool of 10: a trial with 30, the app's pool size, served the same (18,050 against 18,252 req/s of stats).
const pool = new pg.Pool({ connectionString: process.argv[2], max: 10 });
await pool.query(`
  CREATE TABLE IF NOT EXISTS bench_reference_urls AS SELECT code, original_url, clicks FROM urls;
  CREATE UNIQUE INDEX IF NOT EXISTS bench_reference_urls_code_idx ON bench_reference_urls (code);`);

const stats = {
  name: "stats",
  text: "SELECT original_url, clicks, (expires_at IS NOT NULL AND expires_at <= now()) AS expired FROM urls WHERE code = $1",
};
const click = { name: "click", text: "UPDATE bench_reference_urls SET clicks = clicks + 1 WHERE code = $1 RETURNING original_url" };
/** A batch of clicks in one statement, each link's clicks summed, its row updated once. */
const clickBatch = {
  name: "click_batch",
  text: `UPDATE bench_reference_urls AS u SET clicks = u.clicks + b.n
         FROM (SELECT code, count(*)::int AS n FROM unnest($1::text[]) AS code GROUP BY code) AS b
         WHERE u.code = b.code RETURNING u.code, u.original_url`,
};

/** Where each code's link leads (null for no such link), one statement per batch of concurrent clicks. */
const clicks = new GroupCommit(async (codes: string[]) => {
  const { rows } = await pool.query<{ code: string; original_url: string }>({
    name: clickBatch.name,
    text: clickBatch.text,
    values: [codes],
  });
  const targets = new Map(rows.map((r) => [r.code, r.original_url]));
  return codes.map((c) => targets.get(c) ?? null);
}, 1000);

const groupCommit = process.argv.includes("--group-commit");

/** Counts one click and returns its link's target, or null: batched with --group-commit, else on its own. */
async function countClick(code: string): Promise<string | null> {
  if (groupCommit) return clicks.submit(code);
  // A literal, not `{ ...click, values }`: on Node 20 a spread with more properties costs microseconds.
  const row = (await pool.query<{ original_url: string }>({ name: click.name, text: click.text, values: [code] })).rows[0];
  return row?.original_url ?? null;
}

function send(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

/** `GET /<code>/stats` as url/stats.ts answers it; `GET /<code>` counts a click and returns the target. */
async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const [, code, rest] = req.url!.split("/");
  if (rest === "stats") {
    const row = (await pool.query({ name: stats.name, text: stats.text, values: [code] })).rows[0];
    if (!row || row.expired) return send(res, 404, { code: "not_found", message: "URL not found" });
    return send(res, 200, { code, originalUrl: row.original_url, clicks: row.clicks });
  }
  const target = await countClick(code);
  if (target === null) return send(res, 404, { code: "not_found", message: "URL not found" });
  send(res, 200, { url: target });
}

const server = http.createServer((req, res) => {
  answer(req, res).catch((err: Error) => send(res, 500, { code: "internal", message: err.message }));
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once("SIGTERM", () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
