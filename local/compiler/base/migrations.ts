// Reads a database's migrations directory as Encore does (sqldb.rs parse_default).
import fs from "node:fs";

export interface Migration {
  number: number;
  description: string;
  file: string;
}

/** Encore's migration filename pattern. */
const FILENAME_RE = /^(\d+)_([^.]+)\.(up|down)\.sql$/;

/**
 * The .up migrations in a directory, sorted by number, or the problems found: a .sql file whose
 * name does not match, or two files with one number (golang-migrate's "duplicate migration
 * identifier", which Encore only hits when it migrates; we report it up front).
 * Non-.sql files are ignored and subdirectories are not scanned, as in Encore.
 */
export function readMigrations(dir: string): { migrations: Migration[]; errors: string[] } {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    return { migrations: [], errors: [`unable to read migrations directory ${dir}: ${(err as Error).message}`] };
  }
  const migrations: Migration[] = [];
  const errors: string[] = [];
  const seen = new Map<string, string>();
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() || !entry.name.endsWith(".sql")) continue;
    const m = FILENAME_RE.exec(entry.name);
    if (m === null) {
      errors.push(`invalid migration filename: ${entry.name}`);
      continue;
    }
    const number = Number(m[1]);
    const key = `${number}.${m[3]}`;
    const prev = seen.get(key);
    if (prev !== undefined) errors.push(`duplicate migration identifier ${number}: ${prev} and ${entry.name}`);
    seen.set(key, entry.name);
    if (m[3] === "up") migrations.push({ number, description: m[2], file: entry.name });
  }
  migrations.sort((a, b) => a.number - b.number);
  return { migrations, errors };
}
