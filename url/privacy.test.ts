// No column and no log line holds a visitor's address or full User-Agent: the app runs as `npm start`
// runs it, behind a trusted proxy, takes visits from many addresses and browsers (and bad requests),
// and then every text of every table of every database, and everything it printed, is searched.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { databaseDir, databaseUrl, describeLocal, freshAppState, removeAppState, startApp, type SpawnedApp } from "../local/testing";
import { USER_AGENTS } from "./__tests__/user-agents";

/** Starting the whole app takes a minute on a loaded machine. */
vi.setConfig({ testTimeout: 300_000 });

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Visitors' addresses, and what a careless store might keep of an IPv6 one (its /64). */
const ADDRESSES = ["8.8.8.8", "81.2.69.142", "203.0.113.77", "2001:67c:2e8::1"];
const ADDRESS_TRACES = [...ADDRESSES, "2001:67c:2e8:0::/64", "2001:67c:2e8::/64"];
const AGENTS = [...Object.values(USER_AGENTS), `Mozilla/5.0 (X11; Linux x86_64) PrivacyProbe/${process.pid} Firefox/125.0`];
/** Any dotted quad, wherever it stands. */
const IPV4 = /(^|[^\d.])(\d{1,3}\.){3}\d{1,3}([^\d.]|$)/;

/** Every non-null value of every column of every table in a database, as text, with where it was. */
async function everyValue(query: (sql: string) => Promise<Record<string, unknown>[]>): Promise<{ where: string; value: string }[]> {
  const columns = (await query(
    `SELECT table_schema, table_name, column_name FROM information_schema.columns
     WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  )) as { table_schema: string; table_name: string; column_name: string }[];
  const values: { where: string; value: string }[] = [];
  for (const c of columns) {
    const where = `${c.table_schema}.${c.table_name}.${c.column_name}`;
    const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;
    const rows = await query(
      `SELECT ${ident(c.column_name)}::text AS v FROM ${ident(c.table_schema)}.${ident(c.table_name)} WHERE ${ident(c.column_name)} IS NOT NULL`,
    );
    for (const r of rows) values.push({ where, value: String(r.v) });
  }
  return values;
}

/** Reads every value of the stopped app's databases, from the server or from its PGlite directories. */
async function storedValues(state: ReturnType<typeof freshAppState>): Promise<{ where: string; value: string }[]> {
  const all: { where: string; value: string }[] = [];
  for (const name of ["url", "auth", "analytics"]) {
    if (state.databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl(state.databaseUrl, `${state.dbPrefix}${name}`) });
      await client.connect();
      try {
        all.push(...(await everyValue(async (sql) => (await client.query(sql)).rows)));
      } finally {
        await client.end();
      }
    } else {
      const db = new PGlite(databaseDir(name, state.dataDir));
      try {
        all.push(...(await everyValue(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows)));
      } finally {
        await db.close();
      }
    }
  }
  return all;
}

describeLocal("privacy of a whole run", () => {
  it("keeps no address and no full User-Agent in any table or log line", async () => {
    const state = freshAppState();
    let app: SpawnedApp | null = null;
    try {
      app = await startApp(appRoot, { TRUSTED_PROXY_HOPS: "1", TRUSTED_COUNTRY_HEADER: "CF-IPCountry", LOG_LEVEL: "trace" }, state);
      const base = app.baseUrl;
      const signup = await fetch(`${base}/auth/signup`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": ADDRESSES[0] },
        body: JSON.stringify({ email: "privacy@example.com", password: "correct horse battery" }),
      });
      const { token } = (await signup.json()) as { token: string };
      const auth = { Authorization: `Bearer ${token}` };
      const shortened = await fetch(`${base}/shorten`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json", "X-Forwarded-For": ADDRESSES[1] },
        body: JSON.stringify({ url: "https://example.com/private" }),
      });
      const { code } = (await shortened.json()) as { code: string };

      const visits: Promise<number>[] = [];
      for (const address of ADDRESSES) {
        for (const ua of AGENTS) {
          for (const query of ["", "?qr=1", "?utm_source=news&utm_campaign=privacy"]) {
            const headers = {
              "X-Forwarded-For": address,
              "User-Agent": ua,
              Referer: `https://ref.example/?from=${address}`,
              "CF-IPCountry": "XX",
            };
            visits.push(fetch(`${base}/${code}${query}`, { headers, redirect: "manual" }).then((r) => r.status));
            // Requests that fail log too.
            visits.push(fetch(`${base}/zzzzzz${query}`, { headers }).then((r) => r.status));
          }
        }
      }
      const statuses = await Promise.all(visits);
      expect(statuses.filter((s) => s === 200)).toHaveLength(ADDRESSES.length * AGENTS.length * 3);
      for (const path of [`/urls/${code}/clicks`, `/urls/${code}/clicks/export`, "/analytics/clicks"]) {
        expect((await fetch(base + path, { headers: { ...auth, "X-Forwarded-For": ADDRESSES[2] } })).status).toBe(200);
      }
      const logs = app.output();
      expect(await app.stop()).toBe(0);
      app = null;

      // The run did log its requests, so an empty log proves nothing.
      expect(logs).toContain(`/${code}?qr=1`);
      for (const secret of [...ADDRESS_TRACES, ...AGENTS]) expect(logs).not.toContain(secret);

      const values = await storedValues(state);
      expect(values.some((v) => v.where === "public.url_click_facts.country" && v.value === "US")).toBe(true);
      const leaks = values.filter((v) => IPV4.test(v.value) || [...ADDRESS_TRACES, ...AGENTS].some((s) => v.value.includes(s)));
      expect(leaks).toEqual([]);
      // Not even a User-Agent's distinctive part: only bowser's family names are kept.
      expect(values.filter((v) => v.value.includes("PrivacyProbe") || v.value.includes("Mozilla"))).toEqual([]);
    } finally {
      await app?.stop();
      await removeAppState(state);
    }
  });
});
