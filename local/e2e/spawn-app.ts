// Runs `npm start`'s code path (tsx local/cli.ts start) on an app in a child process, as a user
// would, and hands back its base URL. Used by the runtime's end-to-end tests and the benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const localDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.resolve(localDir, "..", "node_modules", ".bin", "tsx");

export interface SpawnedApp {
  baseUrl: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Starts the app at `appDir` on a free port with fresh local state (in a temp dir, removed on stop). */
export async function startApp(appDir: string, env: Record<string, string> = {}): Promise<SpawnedApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "encore-local-"));
  const child = spawn(tsx, [path.join(localDir, "cli.ts"), "start"], {
    env: { ...process.env, NODE_ENV: "development", ENCORE_LOCAL_APP_ROOT: appDir, ENCORE_LOCAL_DATA_DIR: dataDir, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /API listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`app exited with ${code}:\n${out}`)));
  });
  return {
    baseUrl,
    output: () => out,
    stop: async () => {
      const code = await stop(child);
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

/** Runs a local CLI command on `appDir` to completion; resolves with its exit code and output. */
export function runCli(appDir: string, command: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [path.join(localDir, "cli.ts"), command, ...args], {
      env: { ...process.env, ENCORE_LOCAL_APP_ROOT: appDir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => resolve({ code, output }));
  });
}
