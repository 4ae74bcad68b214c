// PATCH /admin/users/:id: a site admin bans an account (or lifts the ban). A banned account cannot sign
// in, its sessions end (the auth handler refuses its tokens from the next request on, and lifting the
// ban does not bring them back), and its links are disabled through the url service.
import { api, APIError } from "encore.dev/api";
import { url } from "~encore/clients";
import { requireSiteAdmin } from "../lib/site-admins";
import { db } from "./db";
import { endSessionsOfUser } from "./sessions";

/** BanUserRequest bans or unbans one account. */
export interface BanUserRequest {
  /** The account's id (a decimal string). */
  id: string;
  banned: boolean;
}

/** BannedUser is the account after the change, and how many of its links were disabled now. */
export interface BannedUser {
  id: string;
  email: string;
  banned: boolean;
  linksDisabled: number;
}

/**
 * banUser sets or lifts the ban (site admins only). The ban commits first, so the account stops at once
 * even if disabling its links then fails; that call is idempotent, so the admin repeats the request.
 * Lifting a ban leaves the links disabled: an admin enables each one that deserves it.
 */
export const banUser = api(
  { expose: true, auth: true, method: "PATCH", path: "/admin/users/:id" },
  async ({ id, banned }: BanUserRequest): Promise<BannedUser> => {
    const admin = requireSiteAdmin();
    if (!/^[1-9]\d{0,18}$/.test(id)) throw APIError.notFound("user not found");
    if (banned && id === admin) throw APIError.invalidArgument("a site admin cannot ban their own account");
    const row = await db.queryRow<{ id: string; email: string; banned: boolean }>`
      UPDATE users SET banned_at = CASE WHEN ${banned} THEN COALESCE(banned_at, now()) END
      WHERE id = ${id}::text::bigint
      RETURNING id::text AS id, email, banned_at IS NOT NULL AS banned`;
    if (row === null) throw APIError.notFound("user not found");
    if (banned) await endSessionsOfUser(row.id, "banned");
    const { disabled } = banned ? await url.disableLinksOf({ creator: row.id, reason: "its owner's account was banned" }) : { disabled: 0 };
    return { ...row, linksDisabled: disabled };
  },
);
