// Bundles the web app (ui/) into dist/, which the api.static endpoints in pages.ts serve.
// Run by `npm install` (prepare), `npm start` and `npm test`; never by hand. dist/ must exist
// before `encore run` compiles the app, as Encore checks a static `dir` at compile time.
// Writes are in place and atomic per file, so a server reading dist/ never sees it missing.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const webDir = path.dirname(fileURLToPath(import.meta.url));
const uiSrc = path.join(webDir, "ui");
const dist = path.join(webDir, "dist");
const assetsDir = path.join(dist, "ui");
const pageDir = path.join(dist, "page");

/** Writes a file through a temporary name, so readers see the old or the new content, never half. */
function writeAtomic(file: string, content: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

const result = await esbuild.build({
  entryPoints: [path.join(uiSrc, "main.tsx")],
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  entryNames: "app-[hash]",
  outdir: assetsDir,
  write: false,
  metafile: true,
  logLevel: "warning",
});

fs.mkdirSync(assetsDir, { recursive: true });
fs.mkdirSync(pageDir, { recursive: true });
const names = new Set<string>();
for (const out of result.outputFiles) {
  names.add(path.basename(out.path));
  writeAtomic(out.path, out.contents);
}
const script = [...names].find((n) => n.endsWith(".js"));
const style = [...names].find((n) => n.endsWith(".css"));
if (script === undefined || style === undefined)
  throw new Error(`web build: expected a .js and a .css output, got ${[...names].join(", ")}`);

const html = fs
  .readFileSync(path.join(uiSrc, "index.html"), "utf8")
  .replace("%SCRIPT%", `/ui/${script}`)
  .replace("%STYLE%", `/ui/${style}`);
writeAtomic(path.join(pageDir, "index.html"), html);

// Bundles of earlier builds are no longer referenced by the page.
for (const name of fs.readdirSync(assetsDir)) {
  if (!names.has(name) && !name.endsWith(".tmp")) fs.rmSync(path.join(assetsDir, name), { force: true });
}
process.stdout.write(`web: built ${script} and ${style}\n`);
