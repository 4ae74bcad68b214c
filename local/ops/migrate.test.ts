// migrateAll against a fresh PostgreSQL server database, run twice (issue 7).
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { NEEDS_DATABASE_URL, skipUnless } from "../testing";
import type { AppModel } from "../model/app-model";
import { migrateAll } from "./migrate";
import { QueryArgs } from "../runtime/sqldb/cursor";
import { SqlDatabase } from "../runtime/sqldb/database";
import { TEST_POOL, databaseUrl, openServer, withMaintenanceClient } from "../runtime/sqldb/server-engine";
import { rows, tempDatabase } from "../runtime/sqldb/testkit";

const serverUrl = process.env.DATABASE_URL;
const prefix = `mig_${crypto.randomBytes(4).toString("hex")}`;

describe("migrateAll on a PostgreSQL server", () => {
  skipUnless(serverUrl, NEEDS_DATABASE_URL);
  const links = tempDatabase(
    {
      "1_links.up.sql": "CREATE TABLE links (code text PRIMARY KEY, url text NOT NULL);",
      "2_owner.up.sql": "ALTER TABLE links ADD COLUMN owner text;",
    },
    `${prefix}_links`,
  );
  const users = tempDatabase({ "1_users.up.sql": "CREATE TABLE users (id text PRIMARY KEY);" }, `${prefix}_users`);
  const model = { databases: [links, users] } as AppModel;

  afterAll(async () => {
    if (!serverUrl) return;
    await withMaintenanceClient(serverUrl!, async (c) => {
      for (const db of model.databases) await c.query(`DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
    });
  });

  it("migrates every database once, tracked as Encore tracks it, and is a no-op the second time", async () => {
    expect(await migrateAll(serverUrl!, model)).toEqual([
      { database: links.name, applied: [1, 2] },
      { database: users.name, applied: [1] },
    ]);
    expect(await migrateAll(serverUrl!, model)).toEqual([
      { database: links.name, applied: [] },
      { database: users.name, applied: [] },
    ]);
    const view = (name: string) =>
      new SqlDatabase(
        { ...users, name, migrationsDir: null },
        {
          open: async () => openServer(name, databaseUrl(serverUrl!, name), { ...TEST_POOL, max: 1 }),
          connString: () => "",
          oneConnection: false,
        },
      );
    const l = view(links.name);
    const u = view(users.name);
    try {
      expect(await rows(l, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 2, dirty: false }]);
      expect(await rows(u, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 1, dirty: false }]);
      expect(
        await rows(l, "SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", "links"),
      ).toEqual([{ column_name: "code" }, { column_name: "url" }, { column_name: "owner" }]);
      await expect(u.query("SELECT id FROM users", new QueryArgs([]))).resolves.toBeDefined();
    } finally {
      await Promise.all([l.close(), u.close()]);
    }
  });
});
