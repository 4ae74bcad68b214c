// The blocklist: target hosts (and their subdomains) no link may point at. It lives in blocked_hosts,
// filled from the file BLOCKLIST_FILE names (one host a line, '#' comments) at each start and by site
// admins through /admin/blocklist. Blocking a host disables every existing link to it, in the same
// transaction.
import fs from "node:fs";
import { api, APIError } from "encore.dev/api";
import log from "encore.dev/log";
import type { MaxLen, MinLen } from "encore.dev/validate";
import type { Transaction } from "encore.dev/storage/sqldb";
import { requireSiteAdmin } from "../../lib/site-admins";
import { currentActor, type Actor } from "../access";
import { db } from "../db";
import { recordModerations, type Moderated } from "./moderation-audit";
import type { BlockedHost } from "./admin-types";

/** normalizeHost returns the host as URLs serialize it (lower case, punycode), or null when it is none. */
export function normalizeHost(raw: string): string | null {
  const text = raw.trim().replace(/^\*?\./, "");
  if (text === "" || /[/?#@\s:]/.test(text.replace(/^\[.*\]$/, ""))) return null;
  try {
    const host = new URL(`http://${text}/`).hostname;
    return host === "" ? null : host;
  } catch {
    return null;
  }
}

/** The host and each parent domain of it: a.b.example.com, b.example.com, example.com, com. */
function hostAndParents(host: string): string[] {
  const labels = host.split(".");
  return labels.map((_, i) => labels.slice(i).join(".")).filter((h) => h !== "");
}

/**
 * refuseBlockedTargets throws invalid_argument "this destination is not allowed" when any of the
 * targets (absolute http(s) URLs already validated) leads to a blocked host or one of its subdomains.
 * Inside a transaction, pass it as `q`.
 */
export async function refuseBlockedTargets(targets: (string | null)[], q: Pick<typeof db, "queryRow"> = db): Promise<void> {
  const hosts = targets.filter((t): t is string => t !== null).flatMap((t) => hostAndParents(new URL(t).hostname));
  if (hosts.length === 0) return;
  const row = await q.queryRow`SELECT 1 FROM blocked_hosts WHERE host = ANY(${hosts}::text[]) LIMIT 1`;
  if (row !== null) throw APIError.invalidArgument("this destination is not allowed");
}

/**
 * disableLinksTo disables every enabled link leading to one of `hosts` (or a subdomain) and returns how
 * many; an admin's action (`actor`) also lands in each link's workspace audit log.
 */
async function disableLinksTo(tx: Pick<Transaction, "queryAll" | "exec">, hosts: string[], actor?: Actor): Promise<number> {
  const links = await tx.queryAll<Moderated>`
    UPDATE urls SET disabled_at = now(), disabled_reason = 'its destination is on the blocklist'
    WHERE disabled_at IS NULL AND EXISTS (
      SELECT FROM unnest(${hosts}::text[]) AS b (host)
      WHERE host_within(target_host(urls.original_url), b.host)
         OR host_within(target_host(urls.ios_url), b.host) OR host_within(target_host(urls.android_url), b.host))
    RETURNING workspace_id::text AS workspace_id, code, false AS was_disabled, true AS disabled, flagged AS was_flagged, flagged,
              disabled_reason`;
  if (actor !== undefined) await recordModerations(tx, actor, links);
  return links.length;
}

/** readBlocklistFile reads the hosts of BLOCKLIST_FILE; a line that is no host is logged and skipped. */
export function readBlocklistFile(file: string): string[] {
  const hosts: string[] = [];
  for (const [i, line] of fs.readFileSync(file, "utf8").split("\n").entries()) {
    const text = line.replace(/#.*/, "").trim();
    if (text === "") continue;
    const host = normalizeHost(text);
    if (host === null) log.warn("BLOCKLIST_FILE: skipping a line that is not a host name", { file, line: i + 1 });
    else hosts.push(host);
  }
  return [...new Set(hosts)];
}

/**
 * syncBlocklistFile makes the file's hosts the 'file' rows of the blocklist and disables the links to
 * them, in one transaction; returns the hosts and the links disabled. Every instance runs it at start.
 */
export async function syncBlocklistFile(file: string): Promise<{ hosts: number; linksDisabled: number }> {
  const hosts = readBlocklistFile(file);
  const tx = await db.begin();
  try {
    await tx.exec`DELETE FROM blocked_hosts WHERE source = 'file' AND host <> ALL(${hosts}::text[])`;
    await tx.exec`INSERT INTO blocked_hosts (host, source) SELECT unnest(${hosts}::text[]), 'file' ON CONFLICT (host) DO NOTHING`;
    const linksDisabled = await disableLinksTo(tx, hosts);
    await tx.commit();
    return { hosts: hosts.length, linksDisabled };
  } catch (err) {
    await tx.rollback().catch(() => {});
    throw err;
  }
}

const blocklistFile = process.env.BLOCKLIST_FILE;
if (blocklistFile !== undefined && blocklistFile !== "") {
  setTimeout(() => {
    syncBlocklistFile(blocklistFile)
      .then((r) => log.info("blocklist loaded from BLOCKLIST_FILE", { file: blocklistFile, ...r }))
      .catch((err) => log.error(err, "could not load BLOCKLIST_FILE; links to its hosts are not refused", { file: blocklistFile }));
  }, 0).unref();
}

/** ListBlocklistResponse is the whole blocklist, by host. */
export interface ListBlocklistResponse {
  hosts: BlockedHost[];
}

/** AddBlockedHostRequest names a host to block. */
export interface AddBlockedHostRequest {
  /** A host name such as "evil.example"; its subdomains are blocked too. */
  host: string & MinLen<1> & MaxLen<253>;
}

/** AddBlockedHostResponse is the new entry and how many links it disabled. */
export interface AddBlockedHostResponse extends BlockedHost {
  linksDisabled: number;
}

interface BlockedRow {
  host: string;
  source: "file" | "admin";
  added_at: Date;
}

const toBlockedHost = (r: BlockedRow): BlockedHost => ({ host: r.host, source: r.source, addedAt: r.added_at });

/** listBlocklist shows every blocked host (site admins only). */
export const listBlocklist = api(
  { expose: true, auth: true, method: "GET", path: "/admin/blocklist" },
  async (): Promise<ListBlocklistResponse> => {
    requireSiteAdmin();
    const rows = await db.queryAll<BlockedRow>`SELECT host, source, added_at FROM blocked_hosts ORDER BY host`;
    return { hosts: rows.map(toBlockedHost) };
  },
);

/** addBlockedHost blocks a host and disables every link to it, in one transaction (site admins only). */
export const addBlockedHost = api(
  { expose: true, auth: true, method: "POST", path: "/admin/blocklist" },
  async ({ host }: AddBlockedHostRequest): Promise<AddBlockedHostResponse> => {
    requireSiteAdmin();
    const actor = currentActor();
    const normalized = normalizeHost(host);
    if (normalized === null) throw APIError.invalidArgument("host: not a host name");
    const tx = await db.begin();
    try {
      const row = await tx.queryRow<BlockedRow>`
        INSERT INTO blocked_hosts (host, source) VALUES (${normalized}, 'admin')
        ON CONFLICT (host) DO UPDATE SET host = EXCLUDED.host
        RETURNING host, source, added_at`;
      const linksDisabled = await disableLinksTo(tx, [normalized], actor);
      await tx.commit();
      return { ...toBlockedHost(row!), linksDisabled };
    } catch (err) {
      await tx.rollback().catch(() => {});
      throw err;
    }
  },
);

/** RemoveBlockedHostRequest names the host to unblock. */
export interface RemoveBlockedHostRequest {
  host: string;
}

/**
 * removeBlockedHost unblocks a host added through the API (site admins only); its links stay disabled
 * until an admin enables each. A host from BLOCKLIST_FILE is removed from the file instead.
 */
export const removeBlockedHost = api(
  { expose: true, auth: true, method: "DELETE", path: "/admin/blocklist/:host" },
  async ({ host }: RemoveBlockedHostRequest): Promise<void> => {
    requireSiteAdmin();
    const normalized = normalizeHost(host);
    const row =
      normalized === null ? null : await db.queryRow<{ source: string }>`SELECT source FROM blocked_hosts WHERE host = ${normalized}`;
    if (row === null) throw APIError.notFound("host is not on the blocklist");
    if (row.source === "file") throw APIError.failedPrecondition("this host comes from BLOCKLIST_FILE: remove it there and restart");
    await db.exec`DELETE FROM blocked_hosts WHERE host = ${normalized} AND source = 'admin'`;
  },
);
