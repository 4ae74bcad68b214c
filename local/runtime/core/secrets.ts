// Secret values for the local runtime. `encore run` takes them from Encore Cloud or, for an app
// that is not linked, from .secrets.local.cue next to encore.app (cli/daemon/secret/secret.go).
// We read that same file, and before it an environment variable of exactly the secret's name:
// that source is our addition, for CI and self-hosted runs; Encore itself does not read it.
// An unset secret is null here, and the SDK turns that into "" locally, as Encore does.
import fs from "node:fs";
import path from "node:path";
import type { Napi } from "../../model/napi";
import { devSecretsFile } from "../../model/layout.mjs";
import { appRoot, testMode } from "./context";

export const LOCAL_SECRETS_FILE = ".secrets.local.cue";

export class Secret implements Napi.Secret {
  constructor(private readonly value: string) {}

  cached(): string {
    return this.value;
  }
}

/** Parse failures name the file and position, prefixed like Encore's "parse local secrets" errors. */
class CueError extends Error {
  constructor(file: string, text: string, pos: number, reason: string) {
    const before = text.slice(0, pos).split("\n");
    super(`parse local secrets: ${file}:${before.length}:${before[before.length - 1].length + 1}: ${reason}`);
  }
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "/": "/",
  "\\": "\\",
  '"': '"',
  "'": "'",
};

type Fail = (offset: number, reason: string) => never;

/** Resolves CUE string escapes (\n, \", \uXXXX, \UXXXXXXXX...); fail takes an offset into raw. */
function unescape(raw: string, fail: Fail): string {
  return raw.replace(/\\(U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|.)/gs, (m, esc: string, offset: number) => {
    if (esc in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[esc];
    if (esc.length > 1) {
      const cp = parseInt(esc.slice(1), 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(offset, `invalid code point in escape ${m}`);
      return String.fromCodePoint(cp);
    }
    if (esc === "(") fail(offset, "string interpolation is not supported in secrets");
    return fail(offset, `unknown escape sequence ${m}`);
  });
}

/** The value of a """ string: the closing line's indentation is removed from every line. */
function multilineValue(body: string, fail: Fail): string {
  const lines = body.split("\n");
  const indent = lines.pop()!;
  if (!/^[ \t]*$/.test(indent)) fail(body.length - indent.length, 'closing """ must be on a line of its own');
  let offset = 0;
  const out = lines.map((line) => {
    const at = offset;
    offset += line.length + 1;
    if (line.trim() === "") return "";
    if (!line.startsWith(indent)) fail(at, 'line is indented less than the closing """');
    return line.slice(indent.length);
  });
  // Offsets of escape errors point into the dedented text; the start of the string is close enough.
  return unescape(out.join("\n"), () => fail(0, 'invalid escape sequence in """ string'));
}

/**
 * Parses the subset of CUE a secrets file needs: `Name: "value"` fields (label bare or quoted),
 * separated by newlines or commas, with `//` comments, "..." and multi-line """ strings.
 */
export function parseLocalSecrets(text: string, file: string): Map<string, string> {
  const values = new Map<string, string>();
  let pos = 0;
  const fail: Fail = (at, reason) => {
    throw new CueError(file, text, at, reason);
  };
  const skipSpace = (): void => {
    for (;;) {
      const m = /^(?:[ \t\r\n,]+|\/\/[^\n]*)/.exec(text.slice(pos));
      if (!m) return;
      pos += m[0].length;
    }
  };
  const readString = (): string => {
    const start = pos;
    if (text.startsWith('"""', pos)) {
      if (text[pos + 3] !== "\n" && text.slice(pos + 3, pos + 5) !== "\r\n")
        fail(pos, 'a """ string must start a new line after the opening quotes');
      const bodyStart = text.indexOf("\n", pos) + 1;
      const end = text.indexOf('"""', bodyStart);
      if (end < 0) fail(start, 'unterminated """ string');
      pos = end + 3;
      const body = text.slice(bodyStart, end).replace(/\r\n/g, "\n");
      return multilineValue(body, (o, r) => fail(bodyStart + o, r));
    }
    const m = /^"((?:[^"\\\n]|\\.)*)"/s.exec(text.slice(pos));
    if (!m) fail(start, "unterminated string");
    pos += m[0].length;
    return unescape(m[1], (o, r) => fail(start + 1 + o, r));
  };

  skipSpace();
  while (pos < text.length) {
    const labelAt = pos;
    const quoted = text[pos] === '"';
    let label: string;
    if (quoted) label = readString();
    else {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(pos));
      if (!m) fail(pos, `expected a secret name, found ${JSON.stringify(text.slice(pos, pos + 10))}`);
      label = m[0];
      pos += label.length;
    }
    const colon = /^[ \t]*:[ \t]*/.exec(text.slice(pos));
    if (!colon) fail(pos, `expected ":" after ${label}`);
    pos += colon[0].length;
    if (text[pos] !== '"') fail(pos, `secret key ${label} is not a string`);
    const value = readString();
    if (values.has(label) && values.get(label) !== value) fail(labelAt, `conflicting values for secret key ${label}`);
    // CUE leaves hidden fields (_name) out of the fields Encore iterates.
    if (quoted || !label.startsWith("_")) values.set(label, value);
    const after = /^[ \t]*(?:\/\/[^\n]*)?(?:\r?\n|,|$)/.exec(text.slice(pos));
    if (!after) fail(pos, `expected a newline or "," after the value of ${label}`);
    skipSpace();
  }
  return values;
}

const fileCache = new Map<string, Map<string, string>>();

/** The file's secrets, read once per process; a missing file holds none. */
export function readLocalSecrets(file: string): Map<string, string> {
  let values = fileCache.get(file);
  if (values === undefined) {
    let text: string | null = null;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    values = text === null ? new Map() : parseLocalSecrets(text, path.basename(file));
    fileCache.set(file, values);
  }
  return values;
}

/**
 * Looks a secret up in the environment, then in each cue file in order (.secrets.local.cue, then the
 * values `npm start --dev-secret` generated); null when none sets it.
 */
export function findSecret(name: string, env: NodeJS.ProcessEnv, cueFiles: string[]): Secret | null {
  let value = env[name];
  for (const file of cueFiles) value ??= readLocalSecrets(file).get(name);
  return value === undefined ? null : new Secret(value);
}

/** The files secrets come from: tests read only .secrets.local.cue, as `encore test` does. */
const secretFiles = [path.join(appRoot, LOCAL_SECRETS_FILE), ...(testMode ? [] : [devSecretsFile])];

export function lookupSecret(name: string): Secret | null {
  return findSecret(name, process.env, secretFiles);
}

/** Where lookupSecret finds a value: "environment", the file's path, or null when unset. */
export function secretSource(name: string): string | null {
  if (process.env[name] !== undefined) return "environment";
  return secretFiles.find((file) => readLocalSecrets(file).has(name)) ?? null;
}
