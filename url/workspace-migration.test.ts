// Migration 011 on a database holding links from before workspaces: each creator gets a personal
// workspace it owns, holding exactly its links; links without a creator stay outside every workspace.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, expect, it } from "vitest";

const dir = path.join(import.meta.dirname, "migrations");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".up.sql"))
  .sort();
const WORKSPACES = "011_create_workspaces.up.sql";

const pg = new PGlite();
afterAll(() => pg.close());

it("moves existing links into their creator's personal workspace", async () => {
  for (const file of files.filter((f) => f < WORKSPACES)) await pg.exec(readFileSync(path.join(dir, file), "utf8"));
  await pg.exec(`
    INSERT INTO urls (code, original_url, creator) VALUES
      ('aaaaa1', 'https://example.com/1', '7'), ('aaaaa2', 'https://example.com/2', '7'),
      ('bbbbb1', 'https://example.com/3', '8'), ('ccccc1', 'https://example.com/4', NULL)
  `);
  await pg.exec(readFileSync(path.join(dir, WORKSPACES), "utf8"));

  const links = await pg.query<{ code: string; owner: string | null; role: string | null; name: string | null }>(`
    SELECT u.code, w.personal_of AS owner, m.role, w.name
    FROM urls u LEFT JOIN workspaces w ON w.id = u.workspace_id
    LEFT JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = u.creator
    ORDER BY u.code
  `);
  expect(links.rows).toEqual([
    { code: "aaaaa1", owner: "7", role: "owner", name: "Personal" },
    { code: "aaaaa2", owner: "7", role: "owner", name: "Personal" },
    { code: "bbbbb1", owner: "8", role: "owner", name: "Personal" },
    { code: "ccccc1", owner: null, role: null, name: null },
  ]);
  const members = await pg.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM workspace_members");
  expect(members.rows[0].n).toBe(2);
});
