// Where serde_json says a request body failed to decode: Encore decodes bodies with serde_json
// (runtimes/core/src/api/schema/body.rs), whose errors end with " at line L column C", the position of
// its reader when the error surfaced: just past the offending value, or just past the "{" or "[" of a
// container given where a scalar was expected. Lines count from 1, columns in bytes from 0.

/** A value's path in the body: object keys and array indexes. */
export type JsonPath = (string | number)[];

const WS = new Set([" ", "\t", "\n", "\r"]);

/** Reads one JSON value starting at `i` (after whitespace) and returns where it ends; calls `visit` for each member. */
function scanValue(text: string, i: number, visit: (key: string | number, start: number) => void): { start: number; end: number } {
  while (WS.has(text[i])) i++;
  const start = i;
  const c = text[i];
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    i++;
    let index = 0;
    for (;;) {
      while (WS.has(text[i])) i++;
      if (text[i] === close) return { start, end: i + 1 };
      if (text[i] === ",") i++;
      while (WS.has(text[i])) i++;
      let key: string | number = index++;
      if (c === "{") {
        const k = scanValue(text, i, () => {});
        key = JSON.parse(text.slice(k.start, k.end)) as string;
        i = k.end;
        while (WS.has(text[i])) i++;
        i++; // ":"
      }
      while (WS.has(text[i])) i++;
      visit(key, i);
      i = scanValue(text, i, () => {}).end;
    }
  }
  if (c === '"') {
    for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    return { start, end: i + 1 };
  }
  while (i < text.length && !WS.has(text[i]) && !",]}".includes(text[i])) i++;
  return { start, end: i };
}

/** The start and end offsets of the value at `path` in valid JSON `text`; the whole text's value for []. */
function locate(text: string, path: JsonPath): { start: number; end: number } {
  let span = scanValue(text, 0, () => {});
  for (const key of path) {
    let found = -1;
    // The last occurrence of a key, as JSON.parse keeps it.
    scanValue(text, span.start, (k, start) => {
      if (k === key) found = start;
    });
    if (found < 0) return span;
    span = scanValue(text, found, () => {});
  }
  return span;
}

/**
 * The " at line L column C" serde_json appends to an error about the value at `path` of `text` (which
 * JSON.parse accepted). `opened` is for a container refused by its type: serde stopped right after its bracket.
 */
export function serdePosition(text: string, path: JsonPath, opened: boolean): string {
  const span = locate(text, path);
  const isContainer = text[span.start] === "{" || text[span.start] === "[";
  const offset = opened && isContainer ? span.start + 1 : span.end;
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.split("\n").length;
  return ` at line ${line} column ${Buffer.byteLength(before.slice(lineStart))}`;
}
