// Whether a file parses with the parser Encore is built on: swc_ecma_parser 0.141 (Encore's
// Cargo.lock: 0.141.21, from its swc fork). npm's @swc/core 1.3.99 is pinned because its binary
// carries swc_ecma_parser 0.141.26, swc_ecma_ast 0.110.10 and swc_common 0.33.9 (the crate paths
// in the .node file say so): the nearest release to 0.141.21 (1.3.96 carries 0.141.7; no release
// lies between). Options as module_loader.rs parse_file sets them: TypeScript syntax for every
// file, decorators on, .d.ts files as declarations, ES2022.
import { createRequire } from "node:module";

/** Where and why swc refused a file: its first error, as Encore reports it (the message of the error kind). */
export interface SyntaxFailure {
  line: number;
  column: number;
  message: string;
}

/** The native binding's parse: the AST as a JSON string, which is all we need to know it parsed. */
type ParseSync = (src: string, options: Buffer, filename?: string) => string;

let parseSync: ParseSync | null = null;

/**
 * Loaded on first use, so only an analysis that misses the cache pays for the native module. The
 * binding is called directly (as @swc/core's own parseSync does, version pinned): the AST is
 * never needed, and turning its JSON into objects would cost 40% more time and the memory.
 */
function swc(): ParseSync {
  parseSync ??= (createRequire(import.meta.url)("@swc/core/binding") as { parseSync: ParseSync }).parseSync;
  return parseSync;
}

const options = (file: string): Buffer =>
  Buffer.from(
    JSON.stringify({
      syntax: "typescript",
      tsx: file.endsWith(".tsx"),
      dts: /\.d\.[mc]?ts$/.test(file),
      decorators: true,
      target: "es2022",
    }),
  );

/** null when swc parses the file, else its first error and where it is. */
export function checkSyntax(file: string, text: string): SyntaxFailure | null {
  try {
    swc()(text, options(file));
    return null;
  } catch (err) {
    return locate(String((err as Error).message ?? err), text);
  }
}

/**
 * Reads swc's rendered diagnostic: the message after "x", the line of the last numbered source
 * row above the caret, and the caret's column, which counts UTF-8 bytes.
 */
function locate(rendered: string, text: string): SyntaxFailure {
  // eslint-disable-next-line no-control-regex
  const lines = rendered.replace(/\u001b\[[0-9;]*m/g, "").split("\n");
  const head = lines.find((l) => /^\s*x /.test(l));
  const message = head === undefined ? "syntax error" : head.replace(/^\s*x /, "").trim();
  let line = text.split("\n").length;
  let column = 1;
  let lastRow: { n: number; start: number } | null = null;
  for (const l of lines) {
    const row = /^\s*(\d+) \| /.exec(l);
    if (row !== null) {
      lastRow = { n: Number(row[1]), start: row[0].length };
      continue;
    }
    const caret = /^\s*: (\s*)\^/.exec(l);
    if (caret !== null && lastRow !== null) {
      line = lastRow.n;
      column = charColumn(text.split("\n")[line - 1] ?? "", caret[0].length - 1 - (l.indexOf(":") + 2)) + 1;
      break;
    }
    if (lastRow !== null) line = lastRow.n;
  }
  return { line, column, message };
}

/** The character index on a line of the given UTF-8 byte offset. */
function charColumn(lineText: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  for (const ch of lineText) {
    if (bytes >= byteOffset) break;
    bytes += Buffer.byteLength(ch);
    i += ch.length;
  }
  return i;
}
