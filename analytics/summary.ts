import { api } from "encore.dev/api";
import { url } from "~encore/clients";
import { db } from "./db";

export interface SummaryResponse {
  /** Links ever counted by analytics, including ones deleted since. */
  linksCreated: number;
  /** Links that exist now, from the url service. */
  activeLinks: number;
  /** Clicks over the links that exist now, from the url service. */
  totalClicks: number;
}

/** All-time totals: history from analytics, the current state from the url service. */
export const summary = api({ expose: true, method: "GET", path: "/analytics/summary" }, async (): Promise<SummaryResponse> => {
  const [counted, current] = await Promise.all([
    db.queryRow<{ n: number }>`SELECT COALESCE(SUM(urls_created), 0)::bigint AS n FROM daily_stats`,
    url.totals(),
  ]);
  return { linksCreated: counted?.n ?? 0, activeLinks: current.links, totalClicks: current.clicks };
});
