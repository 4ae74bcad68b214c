// encore.app, the file that marks the app root (pkg/appfile/appfile.go; JSON with comments).
import fs from "node:fs";
import path from "node:path";
import type { Diagnostics } from "./diagnostics";

/** Strips // and /* *\/ comments and trailing commas outside strings (hujson's extensions). */
function stripJsonComments(text: string): string {
  return text.replace(/"(?:\\.|[^"\\])*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => (m.startsWith('"') ? m : "")).replace(/,(\s*[}\]])/g, "$1");
}

/** encore.app's `global_cors` (appfile.go `CORS`): the deployed gateway's CORS rules. */
export interface GlobalCors {
  debug?: boolean;
  allow_headers?: string[];
  expose_headers?: string[];
  allow_origins_without_credentials?: string[];
  allow_origins_with_credentials?: string[];
}

const CORS_LISTS = ["allow_headers", "expose_headers", "allow_origins_without_credentials", "allow_origins_with_credentials"] as const;

function readAppFile(root: string): Record<string, unknown> {
  const file = path.join(root, "encore.app");
  if (!fs.existsSync(file)) throw new Error(`no encore.app in ${root}: not an Encore app root`);
  return JSON.parse(stripJsonComments(fs.readFileSync(file, "utf8"))) as Record<string, unknown>;
}

/** What is wrong with a global_cors value, as Go's JSON decoder would refuse it; null when nothing. */
function globalCorsProblem(cors: unknown): string | null {
  if (cors === undefined || cors === null) return null;
  if (typeof cors !== "object" || Array.isArray(cors)) return "global_cors must be an object";
  const c = cors as Record<string, unknown>;
  if (c.debug !== undefined && typeof c.debug !== "boolean") return "global_cors.debug must be a boolean";
  for (const key of CORS_LISTS) {
    const v = c[key];
    if (v !== undefined && v !== null && !(Array.isArray(v) && v.every((x) => typeof x === "string"))) {
      return `global_cors.${key} must be a list of strings`;
    }
  }
  return null;
}

/** encore.app's global_cors; empty when absent (the app is checked first, so it is well formed). */
export function readGlobalCors(root: string): GlobalCors {
  const cors = readAppFile(root).global_cors;
  const problem = globalCorsProblem(cors);
  if (problem) throw new Error(`encore.app: ${problem}`);
  return (cors ?? {}) as GlobalCors;
}

/** Checks encore.app: it must exist and declare `"lang": "typescript"`, or Encore treats the app as Go. */
export function checkEncoreApp(root: string, diags: Diagnostics): void {
  let app: Record<string, unknown>;
  try {
    app = readAppFile(root);
  } catch (err) {
    if (!fs.existsSync(path.join(root, "encore.app"))) throw err;
    diags.errorAtFile("encore.app", `encore.app is not valid JSON: ${(err as Error).message}`, "encore-app-invalid");
    return;
  }
  if (app.lang !== "typescript") {
    diags.errorAtFile(
      "encore.app",
      'encore.app must set "lang": "typescript" (without it Encore treats the app as Go)',
      "encore-app-not-typescript",
    );
  }
  const corsProblem = globalCorsProblem(app.global_cors);
  if (corsProblem) diags.errorAtFile("encore.app", corsProblem, "encore-app-invalid");
}
