// PATCH /admin/urls/:code: a site admin disables a link (or enables it again) or flags it with a warning.
import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { requireSiteAdmin } from "../../lib/site-admins";
import { currentActor } from "../access";
import { isLinkCode } from "../alias";
import { inTransaction } from "../transaction";
import { recordModerations, type Moderated } from "./moderation-audit";

/** ModerateLinkRequest says what to change; an absent field stays as it is. */
export interface ModerateLinkRequest {
  code: string;
  /** true disables the link (reason required), false enables it again. */
  disabled?: boolean;
  /** Why it is disabled; its owner sees this. */
  reason?: string & MaxLen<500>;
  /** true shows browsers a warning page before the target; only a visit that continues counts. */
  flagged?: boolean;
}

/** ModeratedLink is a link as a site admin sees it. */
export interface ModeratedLink {
  code: string;
  originalUrl: string;
  /** Who created it (a user id); null for links from before sign-in. */
  creator: string | null;
  clicks: number;
  createdAt: Date;
  disabled: boolean;
  disabledReason: string | null;
  flagged: boolean;
}

/** ModeratedLinkRow is a urls row as the admin endpoints select it. */
export interface ModeratedLinkRow {
  code: string;
  original_url: string;
  creator: string | null;
  clicks: number;
  created_at: Date;
  disabled: boolean;
  disabled_reason: string | null;
  flagged: boolean;
}

/** toModeratedLink describes a link to a site admin. */
export function toModeratedLink(r: ModeratedLinkRow): ModeratedLink {
  return {
    code: r.code,
    originalUrl: r.original_url,
    creator: r.creator,
    clicks: r.clicks,
    createdAt: r.created_at,
    disabled: r.disabled,
    disabledReason: r.disabled_reason,
    flagged: r.flagged,
  };
}

/** moderateLink disables, enables or flags any link (site admins only). */
export const moderateLink = api(
  { expose: true, auth: true, method: "PATCH", path: "/admin/urls/:code" },
  async ({ code, disabled, reason, flagged }: ModerateLinkRequest): Promise<ModeratedLink> => {
    requireSiteAdmin();
    if (disabled === undefined && flagged === undefined)
      throw APIError.invalidArgument("nothing to change: give disabled, flagged or both");
    const why = reason?.trim() ?? "";
    if (disabled === true && why === "") throw APIError.invalidArgument("reason: say why the link is disabled");
    if (!isLinkCode(code)) throw APIError.notFound("URL not found");
    const actor = currentActor();
    const row = await inTransaction(async (tx) => {
      const changed = await tx.queryRow<ModeratedLinkRow & Moderated>`
        WITH before AS (
          SELECT id, disabled_at IS NOT NULL AS was_disabled, flagged AS was_flagged FROM urls WHERE code = ${code} FOR UPDATE
        )
        UPDATE urls SET
          disabled_at = CASE WHEN ${disabled ?? null}::boolean IS NULL THEN disabled_at
                             WHEN ${disabled === true} THEN COALESCE(disabled_at, now()) END,
          disabled_reason = CASE WHEN ${disabled ?? null}::boolean IS NULL THEN disabled_reason
                                 WHEN ${disabled === true} THEN ${why} END,
          flagged = COALESCE(${flagged ?? null}::boolean, flagged)
        FROM before WHERE urls.id = before.id
        RETURNING code, original_url, creator, clicks, created_at, disabled_at IS NOT NULL AS disabled, disabled_reason, flagged,
                  workspace_id::text AS workspace_id, before.was_disabled, before.was_flagged`;
      if (changed !== null) await recordModerations(tx, actor, [changed]);
      return changed;
    });
    if (row === null) throw APIError.notFound("URL not found");
    return toModeratedLink(row);
  },
);

/** DisableLinksOfRequest names a banned user. */
export interface DisableLinksOfRequest {
  creator: string;
  reason: string;
}

/** disableLinksOf disables every enabled link a user created, in their workspaces' audit logs too: the auth service calls it when an admin bans them. */
export const disableLinksOf = api(
  { expose: false, method: "POST", path: "/internal/disable-links-of" },
  async ({ creator, reason }: DisableLinksOfRequest): Promise<{ disabled: number }> => {
    const actor = currentActor();
    const disabled = await inTransaction(async (tx) => {
      const links = await tx.queryAll<Moderated>`
        UPDATE urls SET disabled_at = now(), disabled_reason = ${reason}
        WHERE creator = ${creator} AND disabled_at IS NULL
        RETURNING workspace_id::text AS workspace_id, code, false AS was_disabled, true AS disabled, flagged AS was_flagged, flagged,
                  disabled_reason`;
      await recordModerations(tx, actor, links);
      return links.length;
    });
    return { disabled };
  },
);
