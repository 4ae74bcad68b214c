// One `npm start` per data directory: two processes on the same embedded databases and journal would
// each keep their own view and lose the other's writes. The lock is a file naming its owner's PID
// and port; a lock whose process is gone (kill -9, a crash) is taken over.
import fs from "node:fs";
import path from "node:path";

/** The lock file in a data directory. */
export const LOCK_FILE = "npm-start.lock";

interface Owner {
  pid: number;
  port: number | null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readOwner(file: string): Owner | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Owner;
  } catch {
    return null; // gone, or torn by a crash mid-write: nobody holds it
  }
}

/** The live process holding the lock on `dataDir` (not this one), or null. */
export function lockHolder(dataDir: string): Owner | null {
  const owner = readOwner(path.join(dataDir, LOCK_FILE));
  return owner && owner.pid !== process.pid && alive(owner.pid) ? owner : null;
}

/** "pid 123, serving on port 4000": who holds a data directory, for messages. */
export function describeHolder(owner: Owner): string {
  return `pid ${owner.pid}, ${owner.port === null ? "still starting" : `serving on port ${owner.port}`}`;
}

let held: { file: string } | null = null;

/** Thrown when another live process holds the data directory. */
export class DataDirBusy extends Error {}

/**
 * Takes the lock on `dataDir` for this process, before anything opens its databases, or throws
 * DataDirBusy naming the process that holds it. Released when the process exits.
 */
export function lockDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (;;) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, port: null } satisfies Owner), { flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const owner = lockHolder(dataDir);
    if (owner) {
      throw new DataDirBusy(
        `${dataDir} is in use by another npm start (${describeHolder(owner)}): stop it first, or give this one its own data with ENCORE_LOCAL_DATA_DIR=<dir>`,
      );
    }
    fs.rmSync(file, { force: true }); // stale: its process is gone
  }
  held = { file };
  process.once("exit", releaseDataDir);
}

/** Names the port in the lock, so a second start can say where the first one serves. */
export function recordServingPort(port: number): void {
  if (held) fs.writeFileSync(held.file, JSON.stringify({ pid: process.pid, port } satisfies Owner));
}

/** Gives the data directory up (at shutdown, once its databases are closed). */
export function releaseDataDir(): void {
  if (held && readOwner(held.file)?.pid === process.pid) fs.rmSync(held.file, { force: true });
  held = null;
}
