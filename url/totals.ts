import { api } from "encore.dev/api";
import { db } from "./db";

export interface URLTotals {
  /** Links that exist now (deleted and cleaned-up links are gone). */
  links: number;
  /** Clicks over the links that exist now. */
  clicks: number;
}

/** Totals over the urls table, for the analytics service (internal: not reachable from outside). */
export const totals = api({ expose: false, method: "GET", path: "/internal/totals" }, async (): Promise<URLTotals> => {
  const row = await db.queryRow<URLTotals>`
      SELECT COUNT(*)::bigint AS links, COALESCE(SUM(clicks), 0)::bigint AS clicks FROM urls`;
  return row ?? { links: 0, clicks: 0 };
});
