// The on-disk model cache: reused while the app is unchanged, redone when anything it hashes changes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appModelFileOf } from "../model/layout.mjs";
import { loadAppModel } from "./cache";
import { cachedAppModel, readCache } from "./cache-file";
import { analyzeInChildProcess } from "./analyze-process";
import { AppCompileError } from "../model/app-model";

// Under the repository (inside .local, which git ignores) so the copy still resolves encore.dev.
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const scratch = path.join(repoRoot, ".local", "test-appmodel", `${process.pid}-${Date.now()}`);
const fixture = (name: string): string => fileURLToPath(new URL(`../__tests__/fixtures/${name}`, import.meta.url));

function copyFixture(name: string, as = name): string {
  const dir = path.join(scratch, as);
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

  it("checks again when an api.static directory is built or removed, which the hash does not cover", () => {
    const app = copyFixture("valid", "valid-with-static");
    fs.writeFileSync(
      path.join(app, "shop/pages.ts"),
      'import { api } from "encore.dev/api";\nexport const pages = api.static({ expose: true, path: "/pages/*path", dir: "./dist" });\n',
    );
    expect(() => loadAppModel(app)).toThrow(/\[static-assets-dir\]/);
    fs.mkdirSync(path.join(app, "shop/dist"));
    expect(loadAppModel(app).endpoints.find((e) => e.name === "pages")?.staticAssets?.dir).toBe("shop/dist");
    markCache(app);
    expect(loadAppModel(app).services[0].name).toBe("from-cache");
    fs.rmdirSync(path.join(app, "shop/dist"));
    expect(() => loadAppModel(app)).toThrow(/\[static-assets-dir\]/);
  });

  it("reports a missing api.static directory found by the analysis in a child process, as npm start and gen run it", () => {
    const app = copyFixture("valid", "valid-without-static-child");
    fs.writeFileSync(
      path.join(app, "shop/pages.ts"),
      'import { api } from "encore.dev/api";\nexport const pages = api.static({ expose: true, path: "/pages/*path", dir: "./dist" });\n',
    );
    const { hash } = readCache(app);
    const entry = analyzeInChildProcess(app, hash);
    expect("errors" in entry && entry.errors.map((e) => e.rule)).toEqual(["static-assets-dir"]);
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

describe("cachedAppModel", () => {
  it("returns the cached model while nothing changed, null once a file changes or before any analysis", () => {
    const root = copyFixture("valid");
    expect(cachedAppModel(root)).toBeNull();
    loadAppModel(root);
    markCache(root);
    expect(cachedAppModel(root)?.services[0].name).toBe("from-cache");
    fs.appendFileSync(path.join(root, "shop/items.ts"), "\n// changed\n");
    expect(cachedAppModel(root)).toBeNull();
  });

  it("rethrows cached compile errors", () => {
    const broken = copyFixture("conflicting-paths");
    expect(() => loadAppModel(broken)).toThrow(AppCompileError);
    expect(() => cachedAppModel(broken)).toThrow(/\[conflicting-paths\]/);
  });

  it("keeps the TypeScript compiler (about 46 MB) out of a process that reads the cache, as npm start's runtime does", () => {
    const root = copyFixture("valid");
    loadAppModel(root);
    // A plain Node process with tsx, as `npm start` runs: vitest's own module graph would not tell.
    const script = `
      const { createRequire } = await import("node:module");
      const { cachedAppModel } = await import(${JSON.stringify(new URL("./cache-file.ts", import.meta.url).href)});
      for (const file of ["../runtime/core/context.ts", "../runtime/napi.ts", "../devtools/dash/server.ts", "../codegen/generate.ts"])
        await import(new URL(file, ${JSON.stringify(import.meta.url)}).href);
      const model = cachedAppModel(${JSON.stringify(root)});
      const loaded = Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes("/node_modules/typescript/"));
      process.stdout.write(JSON.stringify({ services: model.services.length, typescriptLoaded: loaded }));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual({ services: 3, typescriptLoaded: false });
  });
});
