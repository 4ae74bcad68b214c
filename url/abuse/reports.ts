// Reports: anyone may report a link (no sign-in, rate-limited per address, nothing stored about who);
// site admins list them and close them.
import { api, APIError, type Query } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { decodeCursor, encodeCursor } from "../cursor";
import { requireSiteAdmin } from "../../lib/site-admins";
import { isLinkCode } from "../alias";
import { db } from "../db";
import { limitReport } from "../limits";
import { writeVisitorPage } from "../visitor-page";
import type { Report, ReportReason, ReportStatus } from "./admin-types";
import { reportPage } from "./pages";

/** ReportLinkRequest is a visitor's report. */
export interface ReportLinkRequest {
  code: string;
  reason: ReportReason;
  /** What the visitor saw, at most 2000 bytes. */
  details?: string & MaxLen<2000>;
}

/** reportLink records a report about an existing link and answers its id. */
export const reportLink = api(
  { expose: true, method: "POST", path: "/:code/report" },
  async ({ code, reason, details }: ReportLinkRequest): Promise<{ id: number }> => {
    if (!isLinkCode(code)) throw APIError.notFound("URL not found");
    await limitReport();
    const row = await db.queryRow<{ id: number }>`
      INSERT INTO link_reports (code, reason, details)
      SELECT code, ${reason}, ${details?.trim() ?? ""} FROM urls WHERE code = ${code}
      RETURNING id::int`;
    if (row === null) throw APIError.notFound("URL not found");
    return { id: row.id };
  },
);

/** reportForm serves browsers the report form for a link (url/abuse/pages.ts); its script posts to reportLink. */
export const reportForm = api.raw({ expose: true, method: ["GET", "HEAD"], path: "/:code/report" }, async (req, resp) => {
  const code = decodeURIComponent((req.url ?? "").slice(1).split("/")[0]);
  resp.setHeader("Cache-Control", "no-store");
  if (!isLinkCode(code)) throw APIError.notFound("URL not found");
  writeVisitorPage(resp, reportPage(code), req.method === "HEAD");
});

/** ListReportsRequest filters by status and picks the page. */
export interface ListReportsRequest {
  status?: Query<ReportStatus>;
  cursor?: Query<string>;
}

/** ListReportsResponse is one page of reports, newest first. */
export interface ListReportsResponse {
  reports: Report[];
  nextCursor?: string;
}

/** UpdateReportRequest closes or reopens a report. */
export interface UpdateReportRequest {
  id: number;
  status: ReportStatus;
}

const PAGE_SIZE = 50;

interface ReportRow {
  id: number;
  code: string;
  reason: ReportReason;
  details: string;
  status: ReportStatus;
  created_at: Date;
  updated_at: Date;
  original_url: string | null;
  creator: string | null;
  disabled: boolean | null;
  flagged: boolean | null;
}

function toReport(r: ReportRow): Report {
  return {
    id: r.id,
    code: r.code,
    reason: r.reason,
    details: r.details,
    status: r.status,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    link:
      r.original_url === null
        ? null
        : { originalUrl: r.original_url, creator: r.creator, disabled: r.disabled === true, flagged: r.flagged === true },
  };
}

/** listReports pages through reports, newest first, optionally of one status (site admins only). */
export const listReports = api(
  { expose: true, auth: true, method: "GET", path: "/admin/reports" },
  async ({ status, cursor }: ListReportsRequest): Promise<ListReportsResponse> => {
    requireSiteAdmin();
    const before = cursor === undefined ? null : decodeCursor(cursor, Number.MAX_SAFE_INTEGER);
    const rows = await db.queryAll<ReportRow>`
      SELECT r.id::int AS id, r.code, r.reason, r.details, r.status, r.created_at, r.updated_at,
             u.original_url, u.creator, u.disabled_at IS NOT NULL AS disabled, u.flagged
      FROM link_reports r LEFT JOIN urls u ON u.code = r.code
      WHERE (${status ?? null}::text IS NULL OR r.status = ${status ?? null}) AND (${before}::bigint IS NULL OR r.id < ${before}::bigint)
      ORDER BY r.id DESC LIMIT ${PAGE_SIZE + 1}`;
    const page = rows.slice(0, PAGE_SIZE);
    return { reports: page.map(toReport), nextCursor: rows.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].id) : undefined };
  },
);

/** updateReport sets a report's status (site admins only). */
export const updateReport = api(
  { expose: true, auth: true, method: "PATCH", path: "/admin/reports/:id" },
  async ({ id, status }: UpdateReportRequest): Promise<Report> => {
    requireSiteAdmin();
    const row = await db.queryRow<ReportRow>`
      WITH changed AS (
        UPDATE link_reports SET status = ${status}, updated_at = now() WHERE id = ${id} RETURNING *
      )
      SELECT r.id::int AS id, r.code, r.reason, r.details, r.status, r.created_at, r.updated_at,
             u.original_url, u.creator, u.disabled_at IS NOT NULL AS disabled, u.flagged
      FROM changed r LEFT JOIN urls u ON u.code = r.code`;
    if (row === null) throw APIError.notFound("report not found");
    return toReport(row);
  },
);
