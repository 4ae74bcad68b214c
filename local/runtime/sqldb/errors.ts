// Errors worded as Encore's napi layer words them (runtimes/js/src/sqldb.rs). A statement that fails
// while being prepared rejects query() with the error's Display, "db error: ERROR: <message>"; one
// that fails while running rejects Cursor.next() with the pretty Debug form ({e:#?}) of the
// tokio-postgres error. napi-rs gives every such Error the code "GenericFailure"; the SQLSTATE
// appears only inside the message, as Encore gives it.

/** The fields of a PostgreSQL ErrorResponse, as both pg and PGlite report them. */
export interface PgErrorFields {
  severity?: string;
  code?: string;
  message: string;
  detail?: string;
  hint?: string;
  position?: string;
  internalPosition?: string;
  internalQuery?: string;
  where?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
  file?: string;
  line?: string;
  routine?: string;
}

/** Whether an error came from the server (an ErrorResponse) rather than the client. */
export function isPgError(err: unknown): err is Error & PgErrorFields {
  return err instanceof Error && typeof (err as PgErrorFields).code === "string" && "severity" in err;
}

/** An Error as napi-rs builds it from a Rust error string. */
export function napiError(message: string): Error {
  return Object.assign(new Error(message), { code: "GenericFailure" });
}

/** tokio-postgres' Display of a database error: "db error: ERROR: msg" plus DETAIL/HINT lines. */
export function dbErrorDisplay(e: PgErrorFields): string {
  let s = `db error: ${e.severity ?? "ERROR"}: ${e.message}`;
  if (e.detail) s += `\nDETAIL: ${e.detail}`;
  if (e.hint) s += `\nHINT: ${e.hint}`;
  return s;
}

/** tokio-postgres' pretty Debug of a database error (what Cursor.next() reports in Encore). */
export function dbErrorDebug(e: PgErrorFields): string {
  const str = (v: string) => `"${rustEscape(v)}"`;
  const opt = (v: string | undefined, fmt: (x: string) => string = str): Tree => (v ? { some: fmt(v) } : "None");
  const position: Tree = e.position
    ? { some: { tuple: "Original", items: [e.position] } }
    : e.internalPosition
      ? {
          some: {
            struct: "Internal",
            fields: [
              ["position", e.internalPosition],
              ["query", str(e.internalQuery ?? "")],
            ],
          },
        }
      : "None";
  const severity = e.severity ?? "ERROR";
  const db: Tree = {
    struct: "DbError",
    fields: [
      ["severity", str(severity)],
      ["parsed_severity", { some: severity.charAt(0) + severity.slice(1).toLowerCase() }],
      ["code", { tuple: "SqlState", items: [`E${e.code ?? "XX000"}`] }],
      ["message", str(e.message)],
      ["detail", opt(e.detail)],
      ["hint", opt(e.hint)],
      ["position", position],
      ["where_", opt(e.where)],
      ["schema", opt(e.schema)],
      ["table", opt(e.table)],
      ["column", opt(e.column)],
      ["datatype", opt(e.dataType)],
      ["constraint", opt(e.constraint)],
      ["file", opt(e.file)],
      ["line", opt(e.line, (x) => x)],
      ["routine", opt(e.routine)],
    ],
  };
  return render(
    {
      struct: "Error",
      fields: [
        ["kind", "Db"],
        ["cause", { some: db }],
      ],
    },
    0,
  );
}

type Tree = string | { some: Tree } | { tuple: string; items: Tree[] } | { struct: string; fields: [string, Tree][] };

/** Renders like Rust's {:#?}: one field per line, trailing commas, four-space indents. */
function render(t: Tree, depth: number): string {
  const pad = "    ".repeat(depth + 1);
  const end = "    ".repeat(depth);
  if (typeof t === "string") return t;
  if ("some" in t) return `Some(\n${pad}${render(t.some, depth + 1)},\n${end})`;
  if ("tuple" in t) return `${t.tuple}(\n${t.items.map((i) => `${pad}${render(i, depth + 1)},\n`).join("")}${end})`;
  return `${t.struct} {\n${t.fields.map(([k, v]) => `${pad}${k}: ${render(v, depth + 1)},\n`).join("")}${end}}`;
}

/** Escapes a string as Rust's Debug for str does. */
function rustEscape(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what Rust escapes
  return s.replace(/[\\"\n\r\t\0]|[\u0001-\u001f\u007f]/g, (c) => {
    switch (c) {
      case "\\":
        return "\\\\";
      case '"':
        return '\\"';
      case "\n":
        return "\\n";
      case "\r":
        return "\\r";
      case "\t":
        return "\\t";
      case "\0":
        return "\\0";
      default:
        return `\\u{${c.charCodeAt(0).toString(16)}}`;
    }
  });
}
