// GET /urls/export: every link of a workspace the caller may read as CSV or JSON, streamed a thousand rows at a time.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { api, APIError } from "encore.dev/api";
import { publicBaseUrl, shortUrl } from "./base-url";
import { currentActor, workspaceAccess } from "./access";
import { db } from "./db";
import type { LinkRow } from "./links";

/** The exported fields, in the CSV's column order; never a password or its hash. */
const COLUMNS = ["code", "shortUrl", "originalUrl", "clicks", "createdAt", "expiresAt", "tags", "maxClicks"] as const;

/** ExportedLink is one link as the export writes it. */
interface ExportedLink {
  code: string;
  shortUrl: string;
  originalUrl: string;
  clicks: number;
  createdAt: string;
  expiresAt: string | null;
  tags: string[];
  maxClicks: number | null;
}

/** How many links one read fetches: the memory an export holds, whatever its size. */
const ROWS_PER_READ = 1000;

/**
 * exportUrls streams all the links of a workspace (`workspaceId`, by default the caller's personal one), newest first: `format=csv` (the default; tags joined with
 * ";", a file POST /urls/import reads back) or `format=json` (one JSON array). Links are read a thousand
 * at a time by keyset on id and written as the client takes them, so 100,000 links never sit in memory.
 */
export const exportUrls = api.raw({ expose: true, auth: true, method: "GET", path: "/urls/export" }, async (req, resp) => {
  const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
  const format = query.get("format") ?? "csv";
  if (format !== "csv" && format !== "json") throw APIError.invalidArgument('format must be "csv" or "json"');
  const { workspaceId } = await workspaceAccess(currentActor(), query.get("workspaceId") ?? undefined, "link.read");
  const links = exportedLinks(workspaceId, publicBaseUrl());
  const day = new Date().toISOString().slice(0, 10);
  resp.writeHead(200, {
    "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
    "Content-Disposition": `attachment; filename="links-${day}.${format}"`,
    "Cache-Control": "no-store",
  });
  if (format === "csv") {
    // escape_formulas: a target or tag is whatever a user typed, and a spreadsheet would run "=...".
    await pipeline(Readable.from(csvRows(links)), stringify({ header: true, columns: [...COLUMNS], escape_formulas: true }), resp);
  } else {
    await pipeline(Readable.from(jsonArray(links)), resp);
  }
});

/** ExportRow is what the export reads of a link. */
type ExportRow = Pick<LinkRow, "id" | "code" | "original_url" | "clicks" | "created_at" | "expires_at" | "tags" | "max_clicks">;

/** exportedLinks reads the workspace's links a page at a time, newest first. */
async function* exportedLinks(workspaceId: string, base: string): AsyncGenerator<ExportedLink> {
  let before: number | null = null;
  for (;;) {
    const rows: ExportRow[] = await db.queryAll<ExportRow>`
      SELECT id, code, original_url, clicks, created_at, expires_at, tags, max_clicks FROM urls
      WHERE workspace_id = ${workspaceId}::text::bigint AND (${before}::int IS NULL OR id < ${before}::int)
      ORDER BY id DESC LIMIT ${ROWS_PER_READ}
    `;
    for (const r of rows) {
      yield {
        code: r.code,
        shortUrl: shortUrl(base, r.code),
        originalUrl: r.original_url,
        clicks: r.clicks,
        createdAt: r.created_at.toISOString(),
        expiresAt: r.expires_at?.toISOString() ?? null,
        tags: r.tags,
        maxClicks: r.max_clicks,
      };
    }
    if (rows.length < ROWS_PER_READ) return;
    before = rows[rows.length - 1].id;
  }
}

/** csvRows are the links with their tags joined by ";", as the import splits them. */
async function* csvRows(links: AsyncIterable<ExportedLink>): AsyncGenerator<Omit<ExportedLink, "tags"> & { tags: string }> {
  for await (const link of links) yield { ...link, tags: link.tags.join(";") };
}

/** jsonArray writes the links as one JSON array, a line per link. */
async function* jsonArray(links: AsyncIterable<ExportedLink>): AsyncGenerator<string> {
  let first = true;
  for await (const link of links) {
    yield `${first ? "[\n" : ",\n"}${JSON.stringify(link)}`;
    first = false;
  }
  yield first ? "[]\n" : "\n]\n";
}
