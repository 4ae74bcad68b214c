// Migrations tracked as Encore tracks them, on both engines.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { advisoryLockId, migrate } from "./migrate";
import { engineSpec } from "./open";
import { readModelMigrations, row, rows, tempDatabase, testEngines, viewOf } from "./testkit";

const FILES = {
  "1_users.up.sql": "CREATE TABLE users (id int PRIMARY KEY, email text NOT NULL);",
  "1_users.down.sql": "DROP TABLE users;",
  "002_names.up.sql": "ALTER TABLE users ADD COLUMN name text;\nINSERT INTO users VALUES (1, 'a@b.c', 'A');",
  "notes.txt": "ignored",
};

describe("advisoryLockId", () => {
  it("is golang-migrate's id for (database, schema, table)", () => {
    // crc32("public\0schema_migrations\0app") * 1486364155 mod 2^32, computed independently.
    expect(advisoryLockId("app", "public")).toBe("1787120056");
  });
});

for (const engine of testEngines()) {
  describe(`migrations on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("applies each migration once, in number order, and records the last version as clean", async () => {
      const model = tempDatabase(FILES);
      const db = engine.open(model);
      try {
        expect(await rows(db, "SELECT id, email, name FROM users")).toEqual([{ id: 1, email: "a@b.c", name: "A" }]);
        expect(await rows(db, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 2, dirty: false }]);

        // Running again changes nothing; a new file is applied on its own.
        const engineOf = await db.ready();
        expect(await migrate(engineOf, model)).toEqual([]);
        fs.writeFileSync(path.join(model.migrationsDir!, "3_more.up.sql"), "INSERT INTO users VALUES (2, 'x@y.z', 'X')");
        expect(await migrate(engineOf, { ...model, migrations: readModelMigrations(model.migrationsDir!) })).toEqual([3]);
        expect(await rows(db, "SELECT id FROM users ORDER BY id")).toEqual([{ id: 1 }, { id: 2 }]);
        expect(await rows(db, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 3, dirty: false }]);
      } finally {
        await db.close();
      }
    });

    it("leaves a failed migration dirty, rolled back, and then refuses to run", async () => {
      const model = tempDatabase({ ...FILES, "3_broken.up.sql": "INSERT INTO users VALUES (9, 'z');\nSELEC oops;" });
      const e = await engineSpec(model, engine.env).open();
      try {
        await expect(migrate(e, model)).rejects.toThrow(
          `could not migrate database ${model.name}: migration 3_broken.up.sql failed: syntax error at or near "SELEC" (line 2, column 1)`,
        );
        const view = viewOf(e);
        expect(await rows(view, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 3, dirty: true }]);
        expect(await rows(view, "SELECT id FROM users")).toEqual([{ id: 1 }]);
        await expect(migrate(e, model)).rejects.toThrow(
          `could not migrate database ${model.name}: it is dirty at version 3 (migration 3_broken.up.sql failed part-way)`,
        );
      } finally {
        await e.close();
      }
    });

    it("refuses a database marked dirty", async () => {
      const model = tempDatabase(FILES);
      const db = engine.open(model);
      try {
        const e = await db.ready();
        await rows(db, "UPDATE schema_migrations SET dirty = true");
        await expect(migrate(e, model)).rejects.toThrow(
          `could not migrate database ${model.name}: it is dirty at version 2 (migration 002_names.up.sql failed part-way)`,
        );
        await rows(db, "UPDATE schema_migrations SET version = 7, dirty = false");
        await expect(migrate(e, model)).rejects.toThrow("it is at version 7, but no migration file has that number");
      } finally {
        await db.close();
      }
    });

    it("does nothing for a database without migrations", async () => {
      const db = engine.open({ ...tempDatabase({}), migrationsDir: null });
      try {
        expect(await row(db, "SELECT to_regclass('schema_migrations') IS NULL AS absent")).toEqual({ absent: true });
      } finally {
        await db.close();
      }
    });

    if (engine.name === "server") {
      it("ends with one migrated database when several pools open it at once", async () => {
        const model = tempDatabase({
          ...FILES,
          "3_slow.up.sql": "SELECT pg_sleep(0.2); INSERT INTO users VALUES (3, 'slow@x.y', 'S');",
        });
        const dbs = Array.from({ length: 4 }, () => engine.open(model));
        try {
          await Promise.all(dbs.map((d) => d.ready()));
          for (const d of dbs) {
            expect(await rows(d, "SELECT id FROM users ORDER BY id")).toEqual([{ id: 1 }, { id: 3 }]);
            expect(await rows(d, "SELECT version, dirty FROM schema_migrations")).toEqual([{ version: 3, dirty: false }]);
          }
        } finally {
          await Promise.all(dbs.map((d) => d.close()));
        }
      });
    }
  });
}
