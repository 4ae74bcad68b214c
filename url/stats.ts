// GET /:code/stats: a link's click count, read without counting a click.
import { api } from "encore.dev/api";
import { isLinkCode } from "./alias";
import { db } from "./db";
import { goneError } from "./resolution";

/** StatsRequest names the link. */
export interface StatsRequest {
  code: string;
}

/** StatsResponse is the link's target and click count. */
export interface StatsResponse {
  code: string;
  originalUrl: string;
  clicks: number;
}

/** stats reports a link's clicks; public, like the link itself, and gone with it when it expires. */
export const stats = api({ expose: true, method: "GET", path: "/:code/stats" }, async ({ code }: StatsRequest): Promise<StatsResponse> => {
  const row = isLinkCode(code)
    ? await db.queryRow<{ original_url: string; clicks: number; expired: boolean }>`
          SELECT original_url, clicks, (expires_at IS NOT NULL AND expires_at <= now()) AS expired
          FROM urls WHERE code = ${code}
        `
    : null;
  if (row === null) throw goneError("not_found");
  if (row.expired) throw goneError("expired");
  return { code, originalUrl: row.original_url, clicks: row.clicks };
});
