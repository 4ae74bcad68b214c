// `npm run migrate` as an operator runs it for a self-hosted deployment: twice, against fresh
// databases named by an infra config, then the schema and Encore's schema_migrations are checked.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEEDS_DATABASE_URL, skipUnless } from "../../testing";
import { runCli } from "./spawn-app";

const serverUrl = process.env.DATABASE_URL;
const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const prefix = `migcmd_${crypto.randomBytes(4).toString("hex")}`;
const names = { url: `${prefix}_url`, auth: `${prefix}_auth`, analytics: `${prefix}_analytics`, webhooks: `${prefix}_webhooks` };

/** The version numbers of a service's migration files, in order, as the runner applies them. */
function migrationVersions(service: string): number[] {
  return fs
    .readdirSync(path.join(appRoot, service, "migrations"))
    .flatMap((f) => /^(\d+)_.*\.up\.sql$/.exec(f)?.[1] ?? [])
    .map(Number)
    .sort((a, b) => a - b);
}

async function query<T>(database: string, sql: string): Promise<T[]> {
  const url = new URL(serverUrl!);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("npm run migrate --config", () => {
  skipUnless(serverUrl, NEEDS_DATABASE_URL);
  const server = new URL(serverUrl ?? "postgres://x@127.0.0.1:5432/postgres");
  // Written when the suite runs on a server (not when it is collected) and removed after it.
  let configDir = "";
  let configFile = "";
  beforeAll(() => {
    if (!serverUrl) return;
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), "infra-"));
    configFile = path.join(configDir, "infra.config.json");
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        sql_servers: [
          {
            host: server.host,
            tls_config: { disabled: true },
            databases: Object.fromEntries(
              Object.entries(names).map(([db, name]) => [
                db,
                { name, username: decodeURIComponent(server.username), password: { $env: "MIGRATE_TEST_DB_PASSWORD" } },
              ]),
            ),
          },
        ],
      }),
    );
  });
  const run = () =>
    runCli(appRoot, "migrate", ["--config", configFile], {
      MIGRATE_TEST_DB_PASSWORD: decodeURIComponent(server.password),
      DATABASE_URL: "",
    });

  afterAll(async () => {
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
    if (!serverUrl) return;
    for (const name of Object.values(names)) await query("postgres", `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it("creates and migrates every database once, then finds them up to date", async () => {
    const first = await run();
    expect(first.code, first.output).toBe(0);
    for (const db of Object.keys(names)) {
      expect(first.output).toMatch(new RegExp(`^${db}: applied ${migrationVersions(db).join(", ")}$`, "m"));
    }

    const second = await run();
    expect(second.code, second.output).toBe(0);
    for (const db of Object.keys(names)) expect(second.output).toMatch(new RegExp(`^${db}: up to date$`, "m"));

    expect(await query(names.url, "SELECT version, dirty FROM schema_migrations")).toEqual([
      { version: String(migrationVersions("url").at(-1)), dirty: false },
    ]);
    const indexes = await query<{ indexname: string }>(
      names.url,
      "SELECT indexname FROM pg_indexes WHERE tablename = 'urls' ORDER BY indexname",
    );
    expect(indexes.map((i) => i.indexname)).toContain("urls_code_idx");
    const columns = await query<{ column_name: string }>(
      names.url,
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'urls' ORDER BY ordinal_position",
    );
    // Migrations only add: the first columns are the original ones, in their order.
    expect(columns.map((c) => c.column_name).slice(0, 6)).toEqual(["id", "code", "original_url", "clicks", "created_at", "creator"]);
  });

  it("refuses a config that reads an unset environment variable", async () => {
    const res = await runCli(appRoot, "migrate", ["--config", configFile], { DATABASE_URL: "" });
    expect(res.code).not.toBe(0);
    expect(res.output).toContain("environment variable MIGRATE_TEST_DB_PASSWORD is not set");
  });
});
