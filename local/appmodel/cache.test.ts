// The on-disk model cache: reused while the app is unchanged, redone when anything it hashes changes.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appModelFileOf } from "../layout.mjs";
import { loadAppModel } from "./cache";
import { AppCompileError } from "./model";

// Under the repository (inside .local, which git ignores) so the copy still resolves encore.dev.
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scratch = path.join(repoRoot, ".local", "test-appmodel", `${process.pid}-${Date.now()}`);
const fixture = (name: string): string => fileURLToPath(new URL(`../__tests__/fixtures/${name}`, import.meta.url));

function copyFixture(name: string): string {
  const dir = path.join(scratch, name);
  fs.cpSync(fixture(name), dir, { recursive: true });
  return dir;
}

/** Marks the cached model so a later load shows whether it came from the cache. */
function markCache(root: string): void {
  const entry = JSON.parse(fs.readFileSync(appModelFileOf(root), "utf8"));
  entry.model.services[0].name = "from-cache";
  fs.writeFileSync(appModelFileOf(root), JSON.stringify(entry));
}

beforeAll(() => fs.mkdirSync(scratch, { recursive: true }));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("loadAppModel", () => {
  let root: string;
  beforeAll(() => {
    root = copyFixture("valid");
  });

  it("analyzes on first use and writes .local/app-model.json", () => {
    const model = loadAppModel(root);
    expect(model.services.map((s) => s.name)).toEqual(["account", "shop", "stats"]);
    expect(fs.existsSync(appModelFileOf(root))).toBe(true);
    expect(appModelFileOf(root)).toBe(path.join(root, ".local", "app-model.json"));
  });

  it("reuses the cached model while nothing changed", () => {
    markCache(root);
    expect(loadAppModel(root).services[0].name).toBe("from-cache");
  });

  it("re-analyzes when a source file changes", () => {
    markCache(root);
    fs.appendFileSync(path.join(root, "shop/items.ts"), "\nexport const added = api({}, async () => {});\n");
    const model = loadAppModel(root);
    expect(model.services[0].name).toBe("account");
    expect(model.endpoints.map((e) => e.name)).toContain("added");
  });

  it("re-analyzes when a migration file appears", () => {
    markCache(root);
    fs.writeFileSync(path.join(root, "stats/migrations/2_more.up.sql"), "SELECT 1;\n");
    const model = loadAppModel(root);
    expect(model.services[0].name).toBe("account");
    expect(model.databases.find((d) => d.name === "stats")?.migrations.map((m) => m.number)).toEqual([1, 2]);
  });

  it("caches compile errors too and rethrows them", () => {
    const broken = copyFixture("conflicting-paths");
    expect(() => loadAppModel(broken)).toThrow(AppCompileError);
    const entry = JSON.parse(fs.readFileSync(appModelFileOf(broken), "utf8"));
    expect(entry.errors.map((e: { rule: string }) => e.rule)).toEqual(["conflicting-paths"]);
    entry.errors[0].message = "from cache";
    fs.writeFileSync(appModelFileOf(broken), JSON.stringify(entry));
    expect(() => loadAppModel(broken)).toThrow(/svc\/items\.ts:4:\d+: from cache \[conflicting-paths\]/);
  });
});
