// Which files make up the app, by Encore's own walker rules (tsparser/src/parser/parser.rs).
import fs from "node:fs";
import path from "node:path";

/** The app's files as the analyzer sees them: paths relative to the root, forward slashes, sorted. */
export interface AppFiles {
  /** Every *.ts file Encore would parse. */
  ts: string[];
  /** Every *.sql file in the same tree (migration names feed the cache key). */
  sql: string[];
}

/** Names Encore skips anywhere in the tree (`is_ignored_name`). */
function isIgnoredName(name: string): boolean {
  return (
    name === "node_modules" ||
    name === "encore.gen" ||
    name === "__tests__" ||
    name.startsWith(".") ||
    name.endsWith(".test.ts") ||
    name.endsWith(".spec.ts") ||
    name.endsWith(".test.js") ||
    name.endsWith(".spec.js")
  );
}

/** Walks the app root the way Encore does and returns its .ts and .sql files. */
export function appFiles(root: string): AppFiles {
  const ts: string[] = [];
  const sql: string[] = [];
  const walk = (rel: string): void => {
    const entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (isIgnoredName(entry.name)) continue;
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        walk(childRel);
      } else if (entry.isFile()) {
        if (entry.name.endsWith(".ts")) ts.push(childRel);
        else if (entry.name.endsWith(".sql")) sql.push(childRel);
      }
    }
  };
  walk("");
  ts.sort();
  sql.sort();
  return { ts, sql };
}

/** The .ts files Encore would parse, relative to the root. */
export function appSourceFiles(root: string): string[] {
  return appFiles(root).ts;
}
