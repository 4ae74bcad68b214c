// encore.app, the file that marks the app root (pkg/appfile/appfile.go; JSON with comments).
import fs from "node:fs";
import path from "node:path";
import type { Diagnostics } from "./diagnostics";

/** Strips // and /* *\/ comments and trailing commas outside strings (hujson's extensions). */
function stripJsonComments(text: string): string {
  return text
    .replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : ""))
    .replace(/,(\s*[}\]])/g, "$1");
}

/** Checks encore.app: it must exist and declare `"lang": "typescript"`, or Encore treats the app as Go. */
export function checkEncoreApp(root: string, diags: Diagnostics): void {
  const file = path.join(root, "encore.app");
  if (!fs.existsSync(file)) throw new Error(`no encore.app in ${root}: not an Encore app root`);
  let lang: unknown;
  try {
    lang = (JSON.parse(stripJsonComments(fs.readFileSync(file, "utf8"))) as { lang?: unknown }).lang;
  } catch (err) {
    diags.errorAtFile("encore.app", `encore.app is not valid JSON: ${(err as Error).message}`, "encore-app-invalid");
    return;
  }
  if (lang !== "typescript") {
    diags.errorAtFile("encore.app", 'encore.app must set "lang": "typescript" (without it Encore treats the app as Go)', "encore-app-not-typescript");
  }
}
