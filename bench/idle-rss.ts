// The memory `npm start` holds at idle: the resident set of its whole process tree (the app and any
// child it keeps), read from /proc a while after the API listens, on the first start of a fresh clone
// (no .local/, no data: the app is analysed and its databases migrate) and on a later start of the
// same clone. Embedded PGlite, as `npm start` runs without DATABASE_URL. `tsx bench/idle-rss.ts` runs it
// alone; `npm run bench` prints it last.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freshAppState, removeAppState, startApp } from "../local";

/** How long the app idles after it listens before its memory is read (BENCH_RSS_IDLE_SECONDS). */
const IDLE_SECONDS = Number(process.env.BENCH_RSS_IDLE_SECONDS ?? 30);

/** The limits, in MiB: the first start of a fresh clone, and any later start. */
export const RSS_LIMITS = { first: 400, later: 300 } as const;

export interface IdleRss {
  first: number;
  later: number;
  idleSeconds: number;
}

/** The pids of `pid` and all its descendants, from each process's parent in /proc/<pid>/stat. */
function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name (2nd field) may hold spaces and parentheses: the fields after its last ")" are plain.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // The process ended while the table was read.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  return tree;
}

/** The resident set of a process tree, in MiB (VmRSS of each process). */
function treeRssMiB(pid: number): number {
  let kib = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kib += Number(m[1]);
    } catch {
      // Gone since the tree was read: it holds nothing now.
    }
  }
  return kib / 1024;
}

/** A fresh clone of the app at `appRoot` in a temp dir: its tracked and untracked files as they are now, node_modules linked, nothing generated. */
function freshClone(appRoot: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "encore-local-clone-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: appRoot, encoding: "utf8" })
    .split("\0")
    .filter((f) => f !== "" && fs.existsSync(path.join(appRoot, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.copyFileSync(path.join(appRoot, f), path.join(dir, f));
  }
  // The pages' bundle is built by `npm start` (npm run build:web), not tracked.
  if (fs.existsSync(path.join(appRoot, "web", "dist")))
    fs.cpSync(path.join(appRoot, "web", "dist"), path.join(dir, "web", "dist"), { recursive: true });
  fs.symlinkSync(path.join(appRoot, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

/** Starts the app, lets it idle, reads its process tree's memory and stops it. */
async function idleRssOfOneStart(
  clone: string,
  state: ReturnType<typeof freshAppState>,
  env: Record<string, string | undefined>,
): Promise<number> {
  const app = await startApp(clone, env, state);
  try {
    await sleep(IDLE_SECONDS * 1000);
    if (app.child.pid === undefined) throw new Error("the app has no pid");
    return treeRssMiB(app.child.pid);
  } finally {
    await app.stop();
  }
}

/** The idle memory of the first start of a fresh clone and of the start after it. */
export async function measureIdleRss(appRoot: string, env: Record<string, string | undefined> = {}): Promise<IdleRss> {
  const clone = freshClone(appRoot);
  const state = freshAppState(undefined);
  const onPglite = { ...env, DATABASE_URL: undefined };
  try {
    const first = await idleRssOfOneStart(clone, state, onPglite);
    const later = await idleRssOfOneStart(clone, state, onPglite);
    return { first, later, idleSeconds: IDLE_SECONDS };
  } finally {
    await removeAppState(state);
    fs.rmSync(clone, { recursive: true, force: true });
  }
}

/** The figures as a Markdown table, with the limits beside them. */
export function formatIdleRss(r: IdleRss): string {
  const row = (name: string, mib: number, limit: number) =>
    `| ${name} | ${mib.toFixed(0)} MiB | ${limit} MiB | ${mib <= limit ? "within" : "OVER"} |`;
  return [
    `| npm start, idle ${r.idleSeconds} s after listening (process tree, embedded PGlite) | RSS | limit | |`,
    "| --- | --- | --- | --- |",
    row("first start of a fresh clone", r.first, RSS_LIMITS.first),
    row("a later start", r.later, RSS_LIMITS.later),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    formatIdleRss(
      await measureIdleRss(path.resolve(path.dirname(new URL(import.meta.url).pathname), ".."), {
        JWTSecret: "bench-secret-bench-secret-bench-secret!!",
      }),
    ),
  );
}
