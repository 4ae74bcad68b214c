// Where npm start keeps its data and how it takes over and wipes it: never inside the app folder,
// which `encore build docker` copies whole (cli/daemon/export/export.go).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultDataDir } from "../../model/layout.mjs";
import { adoptEarlierData, wipeData } from "./data-dir";

const scratch: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "data-dir-test-"));
  scratch.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** An app folder's .local/ as an earlier version left it: generated files and data side by side. */
function earlierLocal(): string {
  const legacy = path.join(tempDir(), ".local");
  fs.mkdirSync(path.join(legacy, "gen"), { recursive: true });
  fs.writeFileSync(path.join(legacy, "app-model.json"), "{}");
  fs.mkdirSync(path.join(legacy, "db", "url"), { recursive: true });
  fs.writeFileSync(path.join(legacy, "db", "url", "PG_VERSION"), "17\n");
  fs.writeFileSync(path.join(legacy, "dev-secrets.cue"), 'JWTSecret: "old"\n', { mode: 0o600 });
  return legacy;
}

describe("defaultDataDir", () => {
  it("lies in the user's cache directory, one per checkout, outside the app folder", () => {
    const root = tempDir();
    const dir = defaultDataDir(root);
    expect(dir.startsWith(root)).toBe(false);
    expect(path.basename(path.dirname(dir))).toBe("encore-local");
    expect(path.basename(dir)).toMatch(new RegExp(`^${path.basename(root)}-[0-9a-f]{12}$`));
    expect(defaultDataDir(path.join(root, "other"))).not.toBe(dir);
  });
});

describe("adoptEarlierData", () => {
  it("moves an earlier version's data out of the app folder and leaves the generated files", () => {
    const legacy = earlierLocal();
    const dataDir = path.join(tempDir(), "data");
    expect(adoptEarlierData(legacy, dataDir)).toEqual([
      `moved the data of an earlier version (db, dev-secrets.cue) from ${legacy} to ${dataDir}`,
    ]);
    expect(fs.readdirSync(legacy).sort()).toEqual(["app-model.json", "gen"]);
    expect(fs.readFileSync(path.join(dataDir, "dev-secrets.cue"), "utf8")).toBe('JWTSecret: "old"\n');
    expect(fs.statSync(path.join(dataDir, "dev-secrets.cue")).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(dataDir, "db", "url", "PG_VERSION"))).toBe(true);
    expect(adoptEarlierData(legacy, dataDir)).toEqual([]);
  });

  it("never overwrites data the data directory already has, and says what it left", () => {
    const legacy = earlierLocal();
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, "dev-secrets.cue"), 'JWTSecret: "new"\n');
    const lines = adoptEarlierData(legacy, dataDir);
    expect(lines[0]).toBe(`moved the data of an earlier version (db) from ${legacy} to ${dataDir}`);
    expect(lines[1]).toMatch(/still holds data of an earlier version \(dev-secrets\.cue\).*delete it$/);
    expect(fs.readFileSync(path.join(dataDir, "dev-secrets.cue"), "utf8")).toBe('JWTSecret: "new"\n');
  });

  it("leaves the data of an earlier npm start that still runs", () => {
    const legacy = earlierLocal();
    fs.writeFileSync(path.join(legacy, "npm-start.lock"), JSON.stringify({ pid: process.ppid, port: 4000 }));
    const dataDir = path.join(tempDir(), "data");
    expect(adoptEarlierData(legacy, dataDir)).toEqual([
      `${legacy} holds data of an earlier npm start that is still running (pid ${process.ppid}, serving on port 4000); left where it is`,
    ]);
    expect(fs.existsSync(path.join(legacy, "db"))).toBe(true);
  });
});

describe("wipeData", () => {
  it("deletes the data entries only, and the directory once empty", () => {
    const legacy = earlierLocal();
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, "objects", "qr-codes"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "npm-start.lock"), JSON.stringify({ pid: 2 ** 22 + 1, port: null }));
    expect(wipeData([dataDir, legacy])).toEqual([`removed objects from ${dataDir}`, `removed db, dev-secrets.cue from ${legacy}`]);
    expect(fs.existsSync(dataDir)).toBe(false);
    expect(fs.readdirSync(legacy).sort()).toEqual(["app-model.json", "gen"]);
    expect(wipeData([dataDir])).toEqual(["nothing to remove"]);
  });

  it("refuses while an npm start holds the data", () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, "npm-start.lock"), JSON.stringify({ pid: process.ppid, port: 4123 }));
    expect(() => wipeData([dataDir])).toThrow(
      `${dataDir} is in use by npm start (pid ${process.ppid}, serving on port 4123): stop it first`,
    );
  });
});
