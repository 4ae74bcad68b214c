// Runs `npm start`'s code path (node --import tsx local/cli.ts start) on an app in a child process, as a user
// would, and hands back its base URL. Used by the runtime's end-to-end tests and the benchmarks.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dropDatabasesWithPrefix } from "../../runtime/sqldb/open";

const localDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/**
 * Node with tsx's loader in the same process, as `npm start` runs: the tsx binary would put a relay
 * process in between, which SIGKILLs the app when it does not acknowledge a SIGTERM within 30 ms (a
 * busy event loop), so a stop under load would not be graceful.
 */
const node = [process.execPath, "--import", pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href] as const;

export interface SpawnedApp {
  baseUrl: string;
  /** The development dashboard's URL (on a free port unless DASH_PORT says otherwise), if it started. */
  dashUrl: string | null;
  output: () => string;
  /** The child process, for tests that signal it themselves. */
  child: ChildProcess;
  stop: () => Promise<number | null>;
  /** kill -9: no shutdown at all; the state stays for a restart. */
  kill: () => Promise<void>;
}

/** `npm start`'s command (package.json's start script): node's own flags before `--import`, and the arguments after `local/cli.ts start`. */
function npmStartCommand(): { nodeFlags: string[]; args: string[] } {
  const pkg = JSON.parse(fs.readFileSync(path.join(localDir, "..", "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  return { nodeFlags: words.slice(words.indexOf("node") + 1, words.indexOf("--import")), args: words.slice(words.indexOf("start") + 1) };
}

/** Where a spawned app keeps its data: a temp dir for PGlite and, with DATABASE_URL, databases of its own. */
export interface AppState {
  dataDir: string;
  dbPrefix: string;
  databaseUrl?: string;
}

/** Fresh, empty state for one or more successive runs of an app; remove it with removeAppState. */
export function freshAppState(databaseUrl = process.env.DATABASE_URL): AppState {
  return {
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "encore-local-")),
    dbPrefix: `spawned_${crypto.randomBytes(4).toString("hex")}_`,
    databaseUrl,
  };
}

/** Deletes the state's data dir and drops its server databases. */
export async function removeAppState(state: AppState): Promise<void> {
  fs.rmSync(state.dataDir, { recursive: true, force: true });
  await dropDatabasesWithPrefix(state.dbPrefix, state.databaseUrl);
}

/**
 * Starts the app at `appDir` on a free port. Without `state`, on fresh state of its own that stop
 * removes; with it, on the caller's, which survives stop (so a caller can stop, edit the data, restart).
 * `env` adds to this process's environment; an undefined value leaves a variable out.
 */
export async function startApp(appDir: string, env: Record<string, string | undefined> = {}, state?: AppState): Promise<SpawnedApp> {
  const own = state ?? freshAppState(env.DATABASE_URL ?? process.env.DATABASE_URL);
  const { nodeFlags, args } = npmStartCommand();
  const child = spawn(node[0], [...nodeFlags, ...node.slice(1), path.join(localDir, "cli.ts"), "start", ...args], {
    env: {
      ...process.env,
      NODE_ENV: "development",
      ENCORE_LOCAL_APP_ROOT: appDir,
      ENCORE_LOCAL_DATA_DIR: own.dataDir,
      LOCAL_DB_NAME_PREFIX: own.dbPrefix,
      LOCAL_CACHE_KEY_PREFIX: own.dbPrefix,
      PORT: "0",
      DASH_PORT: "0",
      DB_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /API listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        child.stdout!.off("data", onData);
        resolve(m[1]);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`app exited with ${code}:\n${out}`)));
  });
  return {
    baseUrl,
    dashUrl: /Development dashboard on (http:\/\/\S+)/.exec(out)?.[1] ?? null,
    output: () => out,
    child,
    stop: async () => {
      const code = await stop(child);
      if (!state) await removeAppState(own);
      return code;
    },
    kill: async () => {
      await stop(child, "SIGKILL");
    },
  };
}

function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill(signal);
  });
}

/** Runs a local CLI command on `appDir` to completion; resolves with its exit code and output. */
export function runCli(
  appDir: string,
  command: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node[0], [...node.slice(1), path.join(localDir, "cli.ts"), command, ...args], {
      env: { ...process.env, ENCORE_LOCAL_APP_ROOT: appDir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => resolve({ code, output }));
  });
}
