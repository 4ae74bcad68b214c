// GET /urls/:code/clicks/export: a link's click history as CSV, one row per day, dimension and value.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { currentRequest, type APICallMeta } from "encore.dev";
import { api } from "encore.dev/api";
import { currentActor, linkAccess } from "./access";
import { clickRange, rangeOfQuery, type ClickRange } from "./click-range";
import { valueLabel } from "./click-report";
import { db } from "./db";

/** The CSV's columns, in order. */
const COLUMNS = ["date", "dimension", "value", "clicks"] as const;

/** A day's clicks of one value of one dimension, as the CSV writes it. */
interface ExportRow {
  date: string;
  dimension: string;
  value: string;
  clicks: number;
}

/**
 * clickExport streams a link's clicks over the range (`days`, or `from` and `to`, as
 * GET /urls/:code/clicks takes them) as CSV: `date,dimension,value,clicks`, oldest day first, only
 * values with clicks; each dimension's rows of a day sum to that day's clicks. A raw endpoint: a typed
 * one answers JSON only. Errors (a bad range, someone else's link) come before the first byte, as JSON.
 */
export const clickExport = api.raw({ expose: true, auth: true, method: "GET", path: "/urls/:code/clicks/export" }, async (req, resp) => {
  const actor = currentActor();
  const code = String((currentRequest() as APICallMeta).pathParams.code);
  const url = req.url ?? "";
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  const range = clickRange(rangeOfQuery(new URLSearchParams(query)));
  const link = await linkAccess(actor, code, "analytics.read");
  resp.writeHead(200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${code}-clicks-${range.from}-to-${range.to}.csv"`,
    "Cache-Control": "no-store",
  });
  // escape_formulas: a campaign is whatever a visitor's query said, and a spreadsheet would run "=...".
  await pipeline(
    Readable.from(exportRows(link.id, range)),
    stringify({ header: true, columns: [...COLUMNS], escape_formulas: true }),
    resp,
  );
});

/** exportRows reads the link's rows of the range, day by day, values named as the JSON report names them. */
async function* exportRows(urlId: number, range: ClickRange): AsyncGenerator<ExportRow> {
  const rows = db.query<ExportRow>`
    SELECT to_char(day, 'YYYY-MM-DD') AS date, dimension, value, SUM(clicks)::int8 AS clicks
    FROM url_click_dimensions
    WHERE url_id = ${urlId} AND day BETWEEN ${range.from}::date AND ${range.to}::date
    GROUP BY day, dimension, value
    HAVING SUM(clicks) > 0
    ORDER BY day, dimension, value
  `;
  for await (const row of rows) yield { ...row, value: valueLabel(row.dimension, row.value) };
}
