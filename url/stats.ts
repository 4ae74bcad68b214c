// GET /:code/stats: a link's click count, read without counting a click.
import { api, APIError } from "encore.dev/api";
import { isCode } from "./code";
import { db } from "./db";

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

/** stats reports a link's clicks; public, like the link itself. */
export const stats = api(
  { expose: true, method: "GET", path: "/:code/stats" },
  async ({ code }: StatsRequest): Promise<StatsResponse> => {
    const row = isCode(code)
      ? await db.queryRow<{ original_url: string; clicks: number }>`
          SELECT original_url, clicks FROM urls WHERE code = ${code}
        `
      : null;
    if (row === null) throw APIError.notFound("URL not found");
    return { code, originalUrl: row.original_url, clicks: row.clicks };
  },
);
