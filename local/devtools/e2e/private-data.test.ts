// Nothing private in the app folder: `encore build docker` copies the whole folder except .git into the
// image (cli/daemon/export/export.go), so a first `npm start` in a fresh clone, with a sign-up and a
// link, must leave no database file and no secret there: its data and its generated development key go
// to the user's cache directory, as `encore run` keeps its own (cli/daemon/objects/manager.go).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { appRoot as repoRoot, defaultDataDir } from "../../model/layout.mjs";

let clone: string;
let cache: string;
let npmStart: ChildProcess;
let output = "";

/** A fresh clone of the working tree as it is (tracked and new files), sharing this checkout's node_modules. */
function freshClone(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-clone-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" });
  for (const file of files.split("\0").filter((f) => f && fs.existsSync(path.join(repoRoot, f)))) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file));
  }
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  // The analysis, keyed by the sources' hash, spares the test the TypeScript compiler's CPU.
  const model = path.join(repoRoot, ".local", "app-model.json");
  if (fs.existsSync(model)) fs.cpSync(model, path.join(dir, ".local", "app-model.json"));
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "clone");
  return dir;
}

beforeAll(async () => {
  clone = freshClone();
  cache = fs.mkdtempSync(path.join(os.tmpdir(), "user-cache-"));
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_CACHE_HOME: cache,
    NODE_ENV: "development",
    PORT: "0",
    DASH_PORT: "off",
    DB_PORT: "off",
  };
  // As a user starts it: embedded databases, no data directory named, no JWTSecret set.
  for (const name of ["ENCORE_LOCAL_DATA_DIR", "ENCORE_LOCAL_APP_ROOT", "DATABASE_URL", "REDIS_URL", "JWTSecret"]) delete env[name];
  npmStart = spawn("npm", ["start", "--silent"], { cwd: clone, env, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const collect = (d: Buffer) => {
      output += d;
      if (/API listening on http:\/\/\S+/.test(output)) resolve();
    };
    npmStart.stdout!.on("data", collect);
    npmStart.stderr!.on("data", collect);
    npmStart.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}, 300_000);

afterAll(() => {
  if (npmStart.exitCode === null) npmStart.kill("SIGKILL");
  for (const dir of [clone, cache]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it("keeps the databases and the development key outside the app folder, and says where", async () => {
  const baseUrl = /API listening on (http:\/\/\S+)/.exec(output)![1];
  const json = { "Content-Type": "application/json" };
  const signup = await fetch(`${baseUrl}/auth/signup`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: "fresh-clone@example.com", password: "correct horse battery" }),
  });
  const { token } = (await signup.json()) as { token: string };
  const shorten = await fetch(`${baseUrl}/shorten`, {
    method: "POST",
    headers: { ...json, Authorization: `Bearer ${token}` },
    body: JSON.stringify({ url: "https://example.com/fresh-clone" }),
  });
  expect(shorten.status).toBe(200);
  await new Promise((resolve) => {
    npmStart.once("exit", resolve);
    npmStart.kill("SIGTERM");
  });

  const dataDir = defaultDataDir(clone, cache);
  expect(output).toContain(`Data      ${dataDir} (databases, bucket files; npm run reset deletes them)`);
  expect(output).toContain(`JWTSecret generated for development, kept in ${path.join(dataDir, "dev-secrets.cue")}`);
  const key = /JWTSecret: "([^"]+)"/.exec(fs.readFileSync(path.join(dataDir, "dev-secrets.cue"), "utf8"))![1];
  expect(fs.readdirSync(path.join(dataDir, "db")).sort()).toEqual(["analytics", "auth", "url", "webhooks"]);
  expect(fs.readdirSync(path.join(dataDir, "objects", "qr-codes"))).toHaveLength(1);

  // What `git status --ignored` shows is only what the build generates from the sources.
  const status = execFileSync("git", ["status", "--ignored", "--porcelain", "--untracked-files=all"], { cwd: clone, encoding: "utf8" });
  const paths = status
    .split("\n")
    .filter(Boolean)
    .map((line) => line.slice(3));
  const generated = [/^\.local\/gen\//, /^\.local\/app-model\.json$/, /^web\/dist\//, /^node_modules$/];
  expect(paths.filter((p) => !generated.some((g) => g.test(p)))).toEqual([]);
  for (const p of paths.filter((p) => p !== "node_modules")) {
    expect(fs.readFileSync(path.join(clone, p), "utf8").includes(key), `${p} holds the development key`).toBe(false);
  }
});
