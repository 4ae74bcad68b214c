// The abuse API's shapes as site admins see them. It imports nothing, so that the web pages read them
// from here (web/ui/admin-page.tsx) rather than keep copies that drift.

/** ReportReason is why a visitor reports a link. */
export type ReportReason = "phishing" | "malware" | "spam" | "illegal" | "other";

/** ReportStatus is where a report stands. */
export type ReportStatus = "open" | "resolved" | "dismissed";

/** Report is one report as a site admin sees it, with the link as it is now (null once deleted). */
export interface Report {
  id: number;
  code: string;
  reason: ReportReason;
  details: string;
  status: ReportStatus;
  createdAt: Date;
  updatedAt: Date;
  link: { originalUrl: string; creator: string | null; disabled: boolean; flagged: boolean } | null;
}

/** BlockedHost is one entry of the blocklist. */
export interface BlockedHost {
  host: string;
  /** "file": from BLOCKLIST_FILE (edit the file to remove it); "admin": added through the API. */
  source: "file" | "admin";
  addedAt: Date;
}
