// Fills a stopped app's url database with many links at once, straight through the database driver:
// through POST /shorten (a QR image each) 100k links would take longer than the whole benchmark.
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { databaseDir, databaseUrl, type AppState } from "../local";

const insert = `
  INSERT INTO urls (code, original_url)
  SELECT c, 'https://example.com/' || c FROM unnest($1::text[]) AS c`;

/**
 * After a bulk load the planner still sizes the table as it was (empty, or a guess from its pages)
 * until autovacuum's analyze comes round, up to a minute later; meanwhile it may plan the click batch
 * with sequential scans of every link. A real deployment grows gradually; a bulk loader analyzes.
 */
const analyze = "ANALYZE urls";

/** `count` distinct valid codes ("b" and five base-36 digits), the same on every run. */
export function benchCodes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `b${i.toString(36).padStart(5, "0")}`);
}

/** Inserts a link with no clicks for each code into the url database of `state` (the app must be stopped). */
export async function seedLinks(state: AppState, codes: string[]): Promise<void> {
  if (state.databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl(state.databaseUrl, `${state.dbPrefix}url`) });
    await client.connect();
    try {
      await client.query(insert, [codes]);
      await client.query(analyze);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new PGlite(databaseDir("url", state.dataDir));
  try {
    await db.query(insert, [codes]);
    await db.query(analyze);
  } finally {
    await db.close();
  }
}
