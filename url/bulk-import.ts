// POST /urls/import: many links from one CSV file, each created (or found) on its own, with a JSON line per row.
import type { IncomingMessage, ServerResponse } from "node:http";
import { api, APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { validateAlias } from "./alias";
import { ownHosts, publicBaseUrl } from "./base-url";
import { currentActor, workspaceAccess } from "./access";
import { db } from "./db";
import { parseImport, type ImportFields } from "./import-format";
import { limitImport } from "./limits";
import { checkLinkFields, hashLinkPassword, type Ownership } from "./new-link";
import { publishQueued } from "./outbox";
import { createLink } from "./store-link";
import { refuseBlockedTargets } from "./abuse/blocklist";

/** The largest file accepted. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** How many rows are stored at once: QR images render on this thread, the rows' writes overlap. */
const ROWS_AT_ONCE = 4;

/** RowResult is one JSON line of the answer. */
type RowResult = { row: number; code: string; existing?: true } | { row: number; error: { code: string; message: string } };

/**
 * importUrls reads a CSV file (`Content-Type: text/csv`, at most 5 MB and 10,000 rows; our columns url,
 * alias, expiresAt, tags separated by ";", maxClicks, or the exports of Bitly, Shlink and Kutt) and
 * answers one JSON line per row, in file order, as each is done: `{row, code}`, with `existing: true`
 * when the workspace already has that alias for that target (so importing a file twice creates nothing
 * twice), or `{row, error: {code, message}}`. Each row is created whole (QR image, row and url-shortened
 * event) or not at all, and a bad row stops nothing else. A raw endpoint: the answer streams, and the
 * body is CSV, and `?workspaceId=` picks the workspace (default: personal). A file that cannot be taken at all (too big, no url column) is refused before any row.
 */
export const importUrls = api.raw(
  // bodyLimit must be a literal for Encore's parser: MAX_IMPORT_BYTES.
  { expose: true, auth: true, method: "POST", path: "/urls/import", bodyLimit: 5242880 },
  async (req, resp) => {
    const actor = currentActor();
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "text/csv") throw APIError.invalidArgument("send the file as Content-Type: text/csv");
    // Counted before the file is read: a refused file costs a parse too, and each import should count.
    await limitImport(actor.userId);
    const rows = parseImport(await readBody(req));
    const query = new URLSearchParams((req.url ?? "").split("?")[1] ?? "");
    const { workspaceId } = await workspaceAccess(actor, query.get("workspaceId") ?? undefined, "link.create");
    const owner: Ownership = { actor, workspaceId };
    const base = publicBaseUrl();
    const own = ownHosts(base);

    resp.writeHead(200, { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" });
    for (let i = 0; i < rows.length && !resp.destroyed; i += ROWS_AT_ONCE) {
      const batch = rows.slice(i, i + ROWS_AT_ONCE);
      const results = await Promise.all(
        batch.map((r) =>
          "error" in r ? failed(r.line, APIError.invalidArgument(r.error)) : importRow(r.line, r.fields, owner, base, own),
        ),
      );
      await write(resp, results.map((r) => JSON.stringify(r) + "\n").join(""));
    }
    resp.end();
  },
);

/** importRow creates one row's link, or finds the workspace's link under its alias with the same target. */
async function importRow(row: number, fields: ImportFields, owner: Ownership, base: string, own: readonly string[]): Promise<RowResult> {
  try {
    const checked = checkLinkFields(fields, owner, own);
    await refuseBlockedTargets([checked.originalUrl, checked.iosUrl, checked.androidUrl]);
    if (fields.alias !== undefined) {
      const alias = validateAlias(fields.alias);
      const held = await db.queryRow<{ workspace_id: string; original_url: string }>`
        SELECT workspace_id::text AS workspace_id, original_url FROM urls WHERE code = ${alias}
      `;
      if (held !== null) {
        if (held.workspace_id === owner.workspaceId && held.original_url === checked.originalUrl)
          return { row, code: alias, existing: true };
        throw APIError.alreadyExists("alias is already taken");
      }
    }
    const claimed = await createLink(await hashLinkPassword(checked), fields.alias, base);
    await publishQueued(claimed.queued);
    return { row, code: claimed.queued.event.code };
  } catch (err) {
    return failed(row, err);
  }
}

/** failed is a row's error line; anything but an APIError is logged and reported without its details. */
function failed(row: number, err: unknown): RowResult {
  if (err instanceof APIError) return { row, error: { code: err.code, message: err.message } };
  log.error(err, "could not import a row", { row });
  return { row, error: { code: "internal", message: "could not import this row, try it again" } };
}

/** readBody reads the request's text, refusing more than MAX_IMPORT_BYTES however it is sent. */
async function readBody(req: IncomingMessage): Promise<string> {
  const length = Number(req.headers["content-length"] ?? 0);
  if (length > MAX_IMPORT_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_IMPORT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(): APIError {
  return APIError.invalidArgument(`the file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB; split it into several imports`);
}

/** write sends `text` and waits while the client's connection is full, so a slow reader holds back the import. */
function write(resp: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (resp.write(text)) resolve();
    else resp.once("drain", resolve).once("close", resolve);
  });
}
