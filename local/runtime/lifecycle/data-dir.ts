// The data directory's life beyond one run: taking over what an earlier version kept inside the app
// folder (<root>/.local, which `encore build docker` would copy into the image, development key
// included), and wiping it all (`npm run reset`).
import fs from "node:fs";
import path from "node:path";
import { DATA_ENTRIES } from "../../model/layout.mjs";
import { describeHolder, LOCK_FILE, lockHolder } from "./data-lock";

/** Moves `from` to `to`, copying when they are on different file systems. */
function move(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    fs.cpSync(from, to, { recursive: true, preserveTimestamps: true });
    fs.rmSync(from, { recursive: true, force: true });
  }
}

/**
 * Moves the data an earlier version left in `legacyDir` into `dataDir`, entry by entry, unless the
 * data directory already has that entry or an npm start of the earlier version still holds it.
 * Returns what to tell the user; nothing when there was nothing to move.
 */
export function adoptEarlierData(legacyDir: string, dataDir: string): string[] {
  const present = DATA_ENTRIES.filter((name) => fs.existsSync(path.join(legacyDir, name)));
  if (present.length === 0) return [];
  const holder = lockHolder(legacyDir);
  if (holder) {
    return [`${legacyDir} holds data of an earlier npm start that is still running (${describeHolder(holder)}); left where it is`];
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const moved: string[] = [];
  const kept: string[] = [];
  for (const name of present) {
    if (fs.existsSync(path.join(dataDir, name))) kept.push(name);
    else {
      move(path.join(legacyDir, name), path.join(dataDir, name));
      moved.push(name);
    }
  }
  const lines: string[] = [];
  if (moved.length > 0) lines.push(`moved the data of an earlier version (${moved.join(", ")}) from ${legacyDir} to ${dataDir}`);
  if (kept.length > 0) {
    lines.push(
      `${legacyDir} still holds data of an earlier version (${kept.join(", ")}) that ${dataDir} already has: ` +
        `it is not used, and encore build docker would copy it into the image; delete it`,
    );
  }
  return lines;
}

/** Deletes the data entries of each directory (nothing else in them); the emptied directories go too. */
export function wipeData(dirs: string[]): string[] {
  const lines: string[] = [];
  for (const dir of dirs) {
    const holder = lockHolder(dir);
    if (holder) throw new Error(`${dir} is in use by npm start (${describeHolder(holder)}): stop it first`);
    const removed = DATA_ENTRIES.filter((name) => fs.existsSync(path.join(dir, name)));
    for (const name of removed) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    fs.rmSync(path.join(dir, LOCK_FILE), { force: true });
    if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    if (removed.length > 0) lines.push(`removed ${removed.join(", ")} from ${dir}`);
  }
  return lines.length > 0 ? lines : ["nothing to remove"];
}
