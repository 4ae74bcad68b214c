// Runs the shell examples of markdown pages as a reader pastes them: in order, in one shell, so the
// variables one command sets (TOKEN, CODE) serve the next, and a page that continues another
// (docs/api.md after the README) is pasted into the same shell after it; then compares what each
// printed with the output block shown after it. Used by check.test.ts and, against a fresh
// `npm start`, by .ci/walkthrough:
//
//   npx tsx walkthrough/check.ts README.md docs/api.md http://127.0.0.1:4000
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

/** DOCS_BASE_URL is the host every documented command talks to (`npm start` / `encore run`). */
export const DOCS_BASE_URL = "http://127.0.0.1:4000";

/** ShellExample is one ```sh block that runs curl, and the output block right after it, if any. */
export interface ShellExample {
  /** "<file>:<line> <first line of the command>", for messages and test names. */
  title: string;
  command: string;
  /** What it prints; null when no output block follows, and then it must print nothing. */
  output: string | null;
}

interface Fence {
  lang: string;
  body: string;
  line: number;
  /** Offsets of the whole fence in the text, to tell whether two fences are adjacent. */
  start: number;
  end: number;
}

const SHELL_LANGS = new Set(["sh", "bash", "shell"]);
const OUTPUT_LANGS = new Set(["json", "text"]);

function fences(markdown: string): Fence[] {
  return [...markdown.matchAll(/^```([\w-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => ({
    lang: m[1],
    body: m[2],
    line: markdown.slice(0, m.index).split("\n").length,
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/**
 * shellExamples returns every shell block of `markdown` that runs curl, in order, each with the
 * ```json or ```text block directly after it (only blank lines between) as its expected output.
 * Other shell blocks (npm start, docker compose) are instructions, not part of the session.
 */
export function shellExamples(markdown: string, file: string): ShellExample[] {
  const blocks = fences(markdown);
  const examples: ShellExample[] = [];
  blocks.forEach((block, i) => {
    if (!SHELL_LANGS.has(block.lang) || !/\bcurl\s/.test(block.body)) return;
    const next = blocks[i + 1];
    const adjacent = next !== undefined && OUTPUT_LANGS.has(next.lang) && markdown.slice(block.end, next.start).trim() === "";
    const command = block.body.trimEnd();
    examples.push({ title: `${file}:${block.line} ${command.split("\n")[0]}`, command, output: adjacent ? next.body : null });
  });
  return examples;
}

/** Where a documented session runs: the API's real base URL and the shell's environment and directory. */
export interface SessionOptions {
  baseUrl: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const MARKER = "<<<end of example>>>";

/**
 * ShellSession is one bash (`set -euo pipefail`: a failing command or an unset variable ends it) into
 * which examples are pasted one at a time, with the documented base URL replaced by the real one.
 */
export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private stdout = "";
  private stderr = "";
  private exited: Promise<number | null>;

  constructor(private readonly options: SessionOptions) {
    this.bash = spawn("bash", [], { cwd: options.cwd, env: options.env });
    this.bash.stdout.setEncoding("utf8").on("data", (chunk: string) => (this.stdout += chunk));
    this.bash.stderr.setEncoding("utf8").on("data", (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.bash.on("close", resolve));
    this.bash.stdin.write("set -euo pipefail\n");
  }

  /** run pastes one example and returns what it printed; throws, naming it, if a command failed. */
  async run(example: ShellExample): Promise<string> {
    const command = example.command.replaceAll(DOCS_BASE_URL, this.options.baseUrl);
    // The marker follows the output straight on, so an output without its trailing newline stays visible.
    this.bash.stdin.write(`${command}\nprintf '%s\\n' '${MARKER}'\n`);
    const done = new Promise<void>((resolve) => {
      const check = () => {
        if (!this.stdout.includes(`${MARKER}\n`)) return;
        this.bash.stdout.off("data", check);
        resolve();
      };
      this.bash.stdout.on("data", check);
      check();
    });
    const code = await Promise.race([done.then(() => "done" as const), this.exited]);
    if (code !== "done") throw new Error(`${example.title} failed: ${this.stderr.trim() || `bash exited with ${code}`}`);
    const at = this.stdout.indexOf(`${MARKER}\n`);
    const printed = this.stdout.slice(0, at);
    this.stdout = this.stdout.slice(at + MARKER.length + 1);
    return printed;
  }

  /** close ends the shell. */
  async close(): Promise<void> {
    this.bash.stdin.end();
    await this.exited;
  }
}

/** How to read one output: the base URL it was served from and which codes to rename. */
export interface NormalizeOptions {
  baseUrl: string;
  /** Code in this output -> code to show instead. */
  codes: Map<string, string>;
  /** Whether app-wide counters include other tests' data. */
  sharedDatabase: boolean;
}

// App-wide counters (analytics, cleanup): exact on a fresh database, anything on a shared one.
const COUNTERS = ["urlsCreated", "total", "linksCreated", "activeLinks", "totalClicks", "deleted"];

/** normalizeOutput rewrites what legitimately differs between runs to fixed placeholders. */
export function normalizeOutput(text: string, options: NormalizeOptions): string {
  let out = text.replaceAll(options.baseUrl, DOCS_BASE_URL);
  out = out.replace(/eyJ[\w-]*\.[\w-]+\.[\w-]+/g, "<token>");
  // API keys are random; their listed prefix is the key's first 8 characters.
  out = out.replace(/\bsk_[\w-]{43}\b/g, "<key>").replace(/"prefix":"sk_[\w-]{5}"/g, '"prefix":"<prefix>"');
  for (const [from, to] of options.codes) out = out.replace(new RegExp(`\\b${from}\\b`, "g"), to);
  out = out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>");
  out = out.replace(/"\d{4}-\d{2}-\d{2}"/g, '"<date>"');
  // CSV rows start with their day (GET /urls/:code/clicks/export).
  out = out.replace(/^\d{4}-\d{2}-\d{2}(?=,)/gm, "<date>");
  out = out.replace(/"(id|userId|workspaceId)":"\d+"/g, '"$1":"<id>"');
  // Present under `encore run` and `npm start`, absent with ENCORE_API_INCLUDE_INTERNAL_MESSAGE=0 (CI runs both).
  out = out.replace(/,"internal_message":(null|"(?:[^"\\]|\\.)*")/g, "");
  if (options.sharedDatabase) {
    out = out.replace(new RegExp(`"(${COUNTERS.join("|")})":\\d+`, "g"), '"$1":<n>');
  }
  return out
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim();
}

/** Mismatch is an example whose output differs from the page, both normalized. */
export interface Mismatch {
  title: string;
  expected: string;
  actual: string;
}

/** OutputChecker compares what examples printed with the page, in session order. */
export class OutputChecker {
  /** Documented code -> code the server really issued, paired in order of appearance. */
  private readonly codes = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly sharedDatabase: boolean,
  ) {}

  /**
   * check returns null when `printed` matches the example's output block (or is empty without one) and
   * ends with a newline, so the reader's next prompt starts on a line of its own.
   */
  check(example: ShellExample, printed: string): Mismatch | null {
    const documented = example.output ?? "";
    if (printed !== "" && !printed.endsWith("\n")) {
      return {
        title: example.title,
        expected: "output ending with a newline",
        actual: `${JSON.stringify(printed.slice(-40))} (no trailing newline)`,
      };
    }
    const actual = normalizeOutput(printed, {
      baseUrl: this.baseUrl,
      codes: this.learn(documented, printed),
      sharedDatabase: this.sharedDatabase,
    });
    const expected = normalizeOutput(documented, { baseUrl: DOCS_BASE_URL, codes: new Map(), sharedDatabase: this.sharedDatabase });
    return actual === expected ? null : { title: example.title, expected, actual };
  }

  /** learn pairs the codes both outputs show and returns real -> documented, for normalizeOutput. */
  private learn(documented: string, printed: string): Map<string, string> {
    const codesIn = (text: string) => [...text.matchAll(/"code":"([0-9a-z]{6})"/g)].map((m) => m[1]);
    const real = codesIn(printed);
    codesIn(documented).forEach((shown, i) => {
      if (real[i] !== undefined && !this.codes.has(shown)) this.codes.set(shown, real[i]);
    });
    return new Map([...this.codes].map(([shown, issued]) => [issued, shown]));
  }
}

/** requestsOf reads the method and path of every curl in a command (GET unless -X, -I or -d says otherwise). */
export function requestsOf(command: string): { method: string; path: string }[] {
  const base = new RegExp(`${escapeRegExp(DOCS_BASE_URL)}(/[^\\s'"?]*)`);
  return command
    .split(/\bcurl\s/)
    .slice(1)
    .flatMap((args) => {
      const url = base.exec(args);
      if (url === null) return [];
      const explicit = /(?:^|\s)-X\s+([A-Z]+)/.exec(args);
      const method = explicit
        ? explicit[1]
        : /(?:^|\s)(-I|--head)\s/.test(args)
          ? "HEAD"
          : /(?:^|\s)(-d|--data)\s/.test(args)
            ? "POST"
            : "GET";
      return [{ method, path: url[1] }];
    });
}

/**
 * routeOf picks the route a path hits among `routes` ("/urls/:code"), as Encore's router does: the
 * first segment where candidates differ decides, static before :param before *wildcard. Null if none.
 */
export function routeOf(routes: string[], path: string): string | null {
  const rank = (seg: string): number => (seg.startsWith("*") ? 2 : seg.startsWith(":") ? 1 : 0);
  const candidates = routes.filter((route) => routePattern(route).test(path));
  candidates.sort((a, b) => {
    const sa = a.split("/");
    const sb = b.split("/");
    for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
      if (rank(sa[i]) !== rank(sb[i])) return rank(sa[i]) - rank(sb[i]);
    }
    return 0;
  });
  return candidates[0] ?? null;
}

function routePattern(route: string): RegExp {
  const segs = route.split("/").map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.startsWith("*") ? ".*" : escapeRegExp(seg)));
  return new RegExp(`^${segs.join("/")}$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** readsOnlyAnalytics tells whether every request of an example is a GET of analytics, which is safe to repeat. */
function readsOnlyAnalytics(example: ShellExample): boolean {
  const requests = requestsOf(example.command);
  return requests.length > 0 && requests.every((r) => r.method === "GET" && r.path.startsWith("/analytics/"));
}

/**
 * Command line: runs pages, in order and in one shell, against a fresh instance; exit 1 if any
 * example fails or differs.
 * Analytics counts arrive through Pub/Sub a moment after the link; a reader typing the next command
 * sees them, a script may be faster, so an analytics read is repeated for up to five seconds.
 */
async function main(args: string[]): Promise<number> {
  const files = args.slice(0, -1);
  const baseUrl = args.at(-1);
  if (files.length === 0 || baseUrl === undefined) {
    process.stderr.write("usage: tsx walkthrough/check.ts <page.md>... <base URL of a fresh instance>\n");
    return 2;
  }
  const shell = new ShellSession({ baseUrl, env: process.env, cwd: process.cwd() });
  const checker = new OutputChecker(baseUrl, false);
  let failed = 0;
  try {
    for (const example of files.flatMap((file) => shellExamples(fs.readFileSync(file, "utf8"), file))) {
      let mismatch = checker.check(example, await shell.run(example));
      for (let retry = 0; mismatch !== null && readsOnlyAnalytics(example) && retry < 20; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        mismatch = checker.check(example, await shell.run(example));
      }
      process.stdout.write(`${mismatch ? "FAIL" : "ok  "} ${example.title}\n`);
      if (mismatch) process.stdout.write(`  expected: ${mismatch.expected}\n  actual:   ${mismatch.actual}\n`);
      if (mismatch) failed++;
    }
  } finally {
    await shell.close();
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
