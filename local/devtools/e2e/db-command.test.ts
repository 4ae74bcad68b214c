// `npm run db -- conn-uri` and `npm run db -- shell` as a developer runs them beside `npm start`: psql
// reaches the embedded database (or DATABASE_URL's) with a query passed through, the app keeps
// serving, and a missing psql or an unknown database is said plainly.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { freshAppState, removeAppState, runCli, startApp, type SpawnedApp } from "./spawn-app";

const state = freshAppState();
const env = { ENCORE_LOCAL_DATA_DIR: state.dataDir, LOCAL_DB_NAME_PREFIX: state.dbPrefix };
const embedded = !process.env.DATABASE_URL;
let app: SpawnedApp | null = null;

beforeAll(async () => {
  app = await startApp(appRootDir, {}, state);
  for (const url of ["https://example.com/db-shell-1", "https://example.com/db-shell-2"]) {
    const signup = await fetch(`${app.baseUrl}/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `db-shell-${url.at(-1)}@example.com`, password: "correct horse battery" }),
    });
    const { token } = (await signup.json()) as { token: string };
    const res = await fetch(`${app.baseUrl}/shorten`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ url }),
    });
    expect(res.status).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await removeAppState(state);
});

describe("npm run db", () => {
  it("prints the connection URI: the app's wire server for the embedded database, else the DATABASE_URL server's database", async () => {
    const { code, output } = await runCli(appRootDir, "db", ["conn-uri", "url"], env);
    expect(code).toBe(0);
    if (embedded) expect(output.trim()).toMatch(/^postgresql:\/\/encore:local@127\.0\.0\.1:\d+\/url\?sslmode=disable$/);
    else expect(output.trim()).toMatch(new RegExp(`/${state.dbPrefix}url$`));
  });

  it("runs a query through psql with the arguments passed on, while the app serves", async () => {
    const { code, output } = await runCli(appRootDir, "db", ["shell", "url", "-tA", "-c", "select count(*) from urls"], env);
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: "2" });
    const failed = await runCli(appRootDir, "db", ["shell", "url", "-c", "selec 1"], env);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain('syntax error at or near "selec"');
    // The app still answers: psql let go of the embedded database's single connection.
    expect((await fetch(`${app!.baseUrl}/analytics/summary`)).status).toBe(200);
  });

  it("names an unknown database and a missing psql plainly", async () => {
    const unknown = await runCli(appRootDir, "db", ["shell", "nope"], env);
    expect(unknown).toEqual({ code: 1, output: "no such database found: nope (the app declares: analytics, auth, url, webhooks)\n" });
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "no-psql-"));
    try {
      const missing = await runCli(appRootDir, "db", ["shell", "url"], { ...env, PATH: bin });
      expect(missing.code).toBe(1);
      expect(missing.output).toMatch(/^psql is not installed \(no psql in PATH\)/);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  describe.skipIf(!embedded)(
    "with the embedded database and npm start stopped (skipped with DATABASE_URL: a server needs no npm start)",
    () => {
      it("serves the database itself for as long as psql runs; conn-uri says npm start is not running", async () => {
        await app!.stop();
        app = null;
        const { code, output } = await runCli(appRootDir, "db", ["shell", "url", "-tA", "-c", "select count(*) from urls"], env);
        expect({ code, output: output.trim() }).toEqual({ code: 0, output: "2" });
        const uri = await runCli(appRootDir, "db", ["conn-uri", "url"], env);
        expect(uri.code).toBe(1);
        expect(uri.output).toMatch(/^npm start is not running/);
      });
    },
  );
});
