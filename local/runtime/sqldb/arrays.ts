// PostgreSQL's text form of arrays ({1,2,NULL,"a \"b\""}), read from results and written for parameters.

/** A parsed array literal: elements are raw element texts, NULLs, or nested arrays. */
export type ArrayItems = (string | null | ArrayItems)[];

/** Parses an array's text output, including the "[0:1]={...}" form for non-default bounds. */
export function parseArrayLiteral(text: string): ArrayItems {
  let i = 0;
  if (text[0] === "[") {
    i = text.indexOf("=") + 1;
  }
  const fail = (): never => {
    throw new Error(`malformed array literal: ${text}`);
  };
  const list = (): ArrayItems => {
    if (text[i] !== "{") fail();
    i++;
    const items: ArrayItems = [];
    if (text[i] === "}") {
      i++;
      return items;
    }
    for (;;) {
      items.push(element());
      const c = text[i++];
      if (c === "}") return items;
      if (c !== ",") fail();
    }
  };
  const element = (): string | null | ArrayItems => {
    if (text[i] === "{") return list();
    if (text[i] === '"') {
      let out = "";
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === "\\") i++;
        out += text[i];
      }
      if (text[i++] !== '"') fail();
      return out;
    }
    const start = i;
    while (i < text.length && text[i] !== "," && text[i] !== "}") i++;
    const raw = text.slice(start, i).trim();
    return raw.toUpperCase() === "NULL" ? null : raw;
  };
  const items = list();
  if (i !== text.length) fail();
  return items;
}

/** Writes a one-dimensional array literal from element texts, quoting every element. */
export function formatArrayLiteral(items: readonly (string | null)[]): string {
  const quoted = items.map((e) => (e === null ? "NULL" : `"${e.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`));
  return `{${quoted.join(",")}}`;
}
