// Every file or folder of this repository that a README or doc names in backticks exists, so a move
// (a rename, a folder split) cannot leave the docs pointing at nothing. Paths are read from the repo
// root, from the document's folder, or from local/ for the local runtime's own docs.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const IGNORED = new Set(["node_modules", ".git", ".local", "encore.gen", "__tests__", "test-output", "dist"]);

function markdownFiles(dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return IGNORED.has(e.name) ? [] : markdownFiles(p);
    return e.name.endsWith(".md") ? [p] : [];
  });
}

/** The top-level folders of the repo and of local/: a backticked path starting with one is ours (others, like tsparser/src/..., are Encore's). */
const ours = (base: string) =>
  new Set(
    fs
      .readdirSync(base, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !IGNORED.has(e.name))
      .map((e) => e.name),
  );
const repoFolders = ours(root);
const localFolders = ours(path.join(root, "local"));

/** `a/b.ts`, `a/b/`, `a/b.ts:12` or `a/b.ts` inside longer code: each path-like word of a code span. */
function namedPaths(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  return spans.flatMap((s) => [...s.matchAll(/(?:^|[\s(])((?:\.\.?\/)?[\w.-]+\/[\w./-]*)/g)].map((m) => m[1].replace(/[.,:;)]+$/, "")));
}

describe("paths named in the docs", () => {
  it.each(markdownFiles().map((f) => [path.relative(root, f), f]))("%s names only paths that exist", (_, file) => {
    const dir = path.dirname(file);
    const inLocal = path.relative(root, file).startsWith("local");
    const missing = namedPaths(fs.readFileSync(file, "utf8")).filter((p) => {
      const first = p.replace(/^\.\.?\//, "").split("/")[0];
      const isOurs = p.startsWith(".") || repoFolders.has(first) || (inLocal && localFolders.has(first));
      // A folder the tests or the build make (test-output, dist, ...) exists only after they ran.
      if (!isOurs || p.split("/").some((segment) => IGNORED.has(segment))) return false;
      const bases = [root, dir, ...(inLocal ? [path.join(root, "local")] : [])];
      return !bases.some((b) => fs.existsSync(path.join(b, p)));
    });
    expect(missing).toEqual([]);
  });
});
