// GET /urls/:code/clicks: when, from where, from which country, on what and through which campaign a
// link was followed, and by how many people, for its owner.
import { api, APIError } from "encore.dev/api";
import { isLinkCode } from "./alias";
import { callerID } from "./caller";
import { clickRange, type RangeQuery } from "./click-range";
import type { ClickReport } from "./click-report-types";
import { readClickReport } from "./click-report";

/** ClickHistoryRequest names the link and the days: the last `days` UTC days, or `from` to `to`. */
export interface ClickHistoryRequest extends RangeQuery {
  code: string;
}

/**
 * clickHistory reports one of the caller's links over the range (default: the last 30 days). Someone
 * else's link is not_found, exactly like a missing one.
 */
export const clickHistory = api(
  { expose: true, auth: true, method: "GET", path: "/urls/:code/clicks" },
  async ({ code, days, from, to }: ClickHistoryRequest): Promise<ClickReport> => {
    const owner = callerID();
    const range = clickRange({ days, from, to });
    const read = isLinkCode(code) ? await readClickReport({ owner, code }, range) : null;
    if (read === null || read.links === 0) throw APIError.notFound("URL not found");
    return read.report;
  },
);
