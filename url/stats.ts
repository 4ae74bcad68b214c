// GET /:code/stats: a link's click count, read without counting a click.
import { api, APIError, ErrCode } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { currentActor, linkAccess } from "./access";
import { isLinkCode } from "./alias";
import { db } from "./db";
import { GroupCommit } from "../lib/group-commit";
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

/** A link's row as stats reads it. */
interface StatsRow {
  code: string;
  original_url: string;
  clicks: number;
  expired: boolean;
  protected: boolean;
}

/** MAX_STATS_PER_BATCH bounds one read statement. */
const MAX_STATS_PER_BATCH = 1000;

/** readStats reads many links in one statement; one row per code asked, null where there is no such link. */
async function readStats(codes: string[]): Promise<(StatsRow | null)[]> {
  const rows = await db.queryAll<StatsRow>`
    SELECT code, original_url, clicks, (expires_at IS NOT NULL AND expires_at <= now()) AS expired,
           password_hash IS NOT NULL AS protected
    FROM urls WHERE code = ANY(${[...new Set(codes)]}::text[])
  `;
  const byCode = new Map(rows.map((r) => [r.code, r]));
  return codes.map((code) => byCode.get(code) ?? null);
}

/**
 * Concurrent stats reads share one statement, as clicks do. A read is sent only after its request
 * arrived (it joins the next batch, never one already in flight), so it sees every click committed
 * before, by this instance or any other.
 */
const statsReads = new GroupCommit(readStats, MAX_STATS_PER_BATCH, "stats");

/**
 * stats reports a link's clicks; public, like the link itself, and gone with it when it expires. A
 * password-protected link's stats would reveal its target, so only members of its workspace (signed
 * in, any role that may read links) read them; to anyone else it answers as its GET does.
 */
export const stats = api({ expose: true, method: "GET", path: "/:code/stats" }, async ({ code }: StatsRequest): Promise<StatsResponse> => {
  const row = isLinkCode(code) ? await statsReads.submit(code) : null;
  if (row === null) throw goneError("not_found");
  if (row.expired) throw goneError("expired");
  if (row.protected && !(await mayRead(code))) throw goneError("password_required");
  return { code, originalUrl: row.original_url, clicks: row.clicks };
});

/** mayRead tells whether the caller, if signed in, may read the link in its workspace. */
async function mayRead(code: string): Promise<boolean> {
  if (getAuthData() === null) return false;
  try {
    await linkAccess(currentActor(), code, "link.read");
    return true;
  } catch (err) {
    // Outside the caller's workspaces, or a role that may not read: the same answer as to a visitor.
    if (err instanceof APIError && (err.code === ErrCode.NotFound || err.code === ErrCode.PermissionDenied)) return false;
    throw err;
  }
}
