// Reads the curl examples out of README.md and normalizes their output, for readme-curl.test.ts.

/** README_BASE_URL is the host every README curl talks to (`npm start` / `encore run`). */
export const README_BASE_URL = "http://127.0.0.1:4000";

/** CurlExample is one ```sh block that runs curl, and the output block right after it. */
export interface CurlExample {
  /** "README.md:<line> <first line of the command>", for test names. */
  title: string;
  command: string;
  output: string;
}

interface Fence {
  lang: string;
  body: string;
  line: number;
  /** Offsets of the whole fence in the text, to tell whether two fences are adjacent. */
  start: number;
  end: number;
}

const SHELL_LANGS = new Set(["sh", "bash", "shell", "console"]);
const OUTPUT_LANGS = new Set(["json", "text"]);

function fences(markdown: string): Fence[] {
  const out: Fence[] = [];
  for (const m of markdown.matchAll(/^```([\w-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)) {
    const start = m.index;
    out.push({
      lang: m[1],
      body: m[2],
      line: markdown.slice(0, start).split("\n").length,
      start,
      end: start + m[0].length,
    });
  }
  return out;
}

/**
 * extractCurlExamples returns every shell block that runs curl with the output block that follows it.
 * A curl block must hold one command and be followed directly (only blank lines between) by a ```json
 * or ```text block; anything else is an error, so no curl in the README escapes the test.
 */
export function extractCurlExamples(markdown: string): CurlExample[] {
  const blocks = fences(markdown);
  const examples: CurlExample[] = [];
  blocks.forEach((block, i) => {
    if (!SHELL_LANGS.has(block.lang) || !/^curl\s/m.test(block.body)) return;
    const where = `README.md:${block.line}`;
    const lines = block.body.trimEnd().split("\n");
    const continued = lines.slice(0, -1).every((l) => l.endsWith("\\"));
    if (!lines[0].startsWith("curl ") || !continued) {
      throw new Error(`${where}: a curl block must hold exactly one curl command (continue lines with "\\")`);
    }
    const next = blocks[i + 1];
    if (next === undefined || !OUTPUT_LANGS.has(next.lang) || markdown.slice(block.end, next.start).trim() !== "") {
      throw new Error(`${where}: a curl block must be followed directly by a \`\`\`json or \`\`\`text block with its output`);
    }
    if (!block.body.includes(README_BASE_URL)) throw new Error(`${where}: a curl example must call ${README_BASE_URL}`);
    examples.push({ title: `${where} ${lines[0]}`, command: block.body.trimEnd(), output: next.body });
  });
  return examples;
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
  let out = text.replaceAll(options.baseUrl, README_BASE_URL);
  out = out.replace(/eyJ[\w-]*\.[\w-]+\.[\w-]+/g, "<token>");
  for (const [from, to] of options.codes) out = out.replace(new RegExp(`\\b${from}\\b`, "g"), to);
  out = out.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>");
  out = out.replace(/"\d{4}-\d{2}-\d{2}"/g, '"<date>"');
  out = out.replace(/"id":"\d+"/g, '"id":"<id>"');
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

/** requestOf reads the method and path a curl example sends (GET unless -X says otherwise or it has -d). */
export function requestOf(command: string): { method: string; path: string } {
  const explicit = /(?:^|\s)-X\s+([A-Z]+)/.exec(command);
  const method = explicit ? explicit[1] : /(?:^|\s)(-d|--data)\s/.test(command) ? "POST" : "GET";
  const url = new RegExp(`${escapeRegExp(README_BASE_URL)}(/[^\\s'"?]*)`).exec(command);
  return { method, path: url ? url[1] : "" };
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
