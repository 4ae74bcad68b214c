// Reading an import file's rows: our own columns and, by their header rows, the CSV exports of Bitly,
// Shlink (shlink-web-client's short_urls.csv) and Kutt (its API's link fields), with csv-parse.
import { parse } from "csv-parse/sync";
import { APIError } from "encore.dev/api";
import type { LinkFields } from "./new-link";

/** ImportFields are what one row asks for: a new link's fields and its alias, if any. */
export interface ImportFields extends LinkFields {
  alias?: string;
}

/** ParsedRow is one row of the file: its line (the header is line 1) and its fields, or why it cannot be read. */
export type ParsedRow = { line: number; fields: ImportFields } | { line: number; error: string };

/** The most data rows one import takes. */
export const MAX_IMPORT_ROWS = 10_000;

/**
 * The columns each field may come from, by header name lower-cased with everything but letters and
 * digits removed ("Long URL" and long_url are both "longurl"). Ours first, then Bitly's (long_url,
 * custom_bitlinks, tags), Shlink's (longUrl, shortCode, tags joined with "|", validUntil, maxVisits) and
 * Kutt's (target, address, expire_in).
 */
const COLUMNS = {
  url: ["url", "originalurl", "longurl", "target", "destination"],
  alias: ["alias", "code", "shortcode", "address", "backhalf", "custombitlinks"],
  expiresAt: ["expiresat", "expireat", "expirein", "validuntil"],
  tags: ["tags", "tag"],
  maxClicks: ["maxclicks", "maxvisits"],
} as const;

/** Columns that hold a whole short link, whose last path segment is the alias (Bitly's bitlink/link, Shlink's shortUrl). */
const SHORT_LINK_COLUMNS = ["bitlink", "link", "shorturl", "shortlink"];

type Field = keyof typeof COLUMNS;

/** headerKey is how a header cell is matched: lower-case letters and digits only. */
function headerKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The column index of each field this header row names (the first column that matches). */
function mapHeader(header: string[]): { columns: Partial<Record<Field, number>>; shortLink: number | undefined } {
  const keys = header.map(headerKey);
  const columns: Partial<Record<Field, number>> = {};
  for (const field of Object.keys(COLUMNS) as Field[]) {
    const index = keys.findIndex((k) => (COLUMNS[field] as readonly string[]).includes(k));
    if (index !== -1) columns[field] = index;
  }
  if (columns.url === undefined) {
    throw APIError.invalidArgument("the header row names no url column: url, long_url (Bitly), longUrl (Shlink) or target (Kutt)");
  }
  const shortLink = keys.findIndex((k) => SHORT_LINK_COLUMNS.includes(k));
  return { columns, shortLink: shortLink === -1 ? undefined : shortLink };
}

/** The last path segment of a short link ("https://bit.ly/Abc" is "Abc"), or undefined. */
function aliasOfShortLink(text: string): string | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  if (!URL.canParse(withScheme)) return undefined;
  const segment = new URL(withScheme).pathname
    .split("/")
    .filter((s) => s !== "")
    .pop();
  return segment === undefined ? undefined : decodeURIComponent(segment);
}

/** readFields turns one record into fields; a cell that cannot be read throws, naming its column. */
function readFields(record: string[], map: ReturnType<typeof mapHeader>): ImportFields {
  const cell = (field: Field): string | undefined => {
    const index = map.columns[field];
    // A leading ' before = + - @ is how exports (ours too) keep a spreadsheet from running a cell.
    const value = index === undefined ? undefined : record[index]?.trim().replace(/^'(?=[=+\-@])/, "");
    return value === "" ? undefined : value;
  };
  const fields: ImportFields = { url: cell("url") ?? "" };
  const alias = cell("alias") ?? (map.shortLink === undefined ? undefined : aliasOfShortLink(record[map.shortLink]?.trim() ?? ""));
  if (alias !== undefined && alias !== "") fields.alias = alias;
  const expires = cell("expiresAt");
  if (expires !== undefined) {
    const at = new Date(expires);
    if (Number.isNaN(at.getTime())) throw APIError.invalidArgument(`expiresAt "${expires}" is not a date`);
    fields.expiresAt = at;
  }
  const tags = cell("tags");
  if (tags !== undefined)
    fields.tags = tags
      .split(/[;|,]/)
      .map((t) => t.trim())
      .filter((t) => t !== "");
  const maxClicks = cell("maxClicks");
  if (maxClicks !== undefined) {
    if (!/^\d+$/.test(maxClicks)) throw APIError.invalidArgument(`maxClicks "${maxClicks}" is not a whole number`);
    fields.maxClicks = Number(maxClicks);
  }
  return fields;
}

/**
 * parseImport reads a CSV file: its header row picks the format, each later row becomes fields or an
 * error of its own. A row csv-parse cannot read (a stray quote) is reported and the next one read; an
 * unclosed quote takes the rest of the file with it. A file without a usable header, or with more than
 * 10,000 rows, is refused whole.
 */
export function parseImport(text: string): ParsedRow[] {
  const skipped: ParsedRow[] = [];
  const records = parse(text, {
    bom: true,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_skip: (err) => {
      skipped.push({ line: Number(err?.lines ?? 0), error: `not valid CSV: ${err?.message ?? "unreadable row"}` });
      return undefined;
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  if (records.length === 0) throw APIError.invalidArgument("the file is empty: it needs a header row naming a url column");
  const map = mapHeader(records[0].record);
  if (records.length - 1 + skipped.length > MAX_IMPORT_ROWS) {
    throw APIError.invalidArgument(`the file has more than ${MAX_IMPORT_ROWS} rows; split it into several imports`);
  }
  const rows = records.slice(1).map(({ record, info }): ParsedRow => {
    try {
      return { line: info.lines, fields: readFields(record, map) };
    } catch (err) {
      return { line: info.lines, error: err instanceof APIError ? err.message : String(err) };
    }
  });
  return [...rows, ...skipped].sort((a, b) => a.line - b.line);
}
