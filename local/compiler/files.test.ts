// Which files the analyzer reads: Encore's walker rules (tsparser/src/parser/parser.rs), local/ included.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { appFiles } from "./files";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "appmodel-files-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function touch(rel: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), "");
}

describe("appFiles", () => {
  it("keeps every .ts and .sql file except those Encore skips", () => {
    const kept = [
      "vite.config.ts",
      "svc/a.ts",
      "svc/sub/b.ts",
      "svc/types.d.ts",
      "svc/local/c.ts",
      "local/runtime.ts",
      "svc/migrations/1_x.up.sql",
    ];
    const skipped = [
      "node_modules/x/index.ts",
      "svc/node_modules/y.ts",
      "encore.gen/clients/index.ts",
      "svc/__tests__/h.ts",
      ".local/gen/main.ts",
      "svc/.hidden/d.ts",
      "svc/a.test.ts",
      "svc/a.spec.ts",
      "svc/readme.md",
      "svc/a.js",
      "svc/a.tsx",
      "svc/a.mts",
    ];
    for (const f of [...kept, ...skipped]) touch(f);
    expect(appFiles(root)).toEqual({
      ts: ["local/runtime.ts", "svc/a.ts", "svc/local/c.ts", "svc/sub/b.ts", "svc/types.d.ts", "vite.config.ts"],
      sql: ["svc/migrations/1_x.up.sql"],
    });
  });
});
