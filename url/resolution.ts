// What a code leads to right now, shared by the redirect, HEAD, unlock and stats.
import { APIError } from "encore.dev/api";
import { isLinkCode } from "./alias";
import { db } from "./db";
import { targetFor } from "./device-targets";

/**
 * Gone says why a code leads nowhere for this visit: no such link, a link past its expiry or its click
 * limit, a password-protected link visited without its password, or a link the site's admins disabled.
 */
export type Gone = "not_found" | "expired" | "limit_reached" | "password_required" | "disabled";

/**
 * Resolution is a live link's target, why the code leads nowhere, or (`warn`) the target of a link the
 * admins flagged, which a browser is shown before it may go on (url/abuse/warning.ts).
 */
export type Resolution = { target: string } | { gone: Gone } | { warn: string };

/** goneError is the error an API client sees for a code that leads nowhere. */
export function goneError(gone: Gone): APIError {
  switch (gone) {
    case "not_found":
      return APIError.notFound("URL not found");
    case "expired":
      return APIError.notFound("URL has expired");
    case "limit_reached":
      return APIError.notFound("URL has reached its click limit");
    case "password_required":
      return APIError.permissionDenied("password required");
    case "disabled":
      return APIError.permissionDenied("this link has been disabled");
  }
}

/** LinkState is a link's row as a check without a click reads it. */
interface LinkState {
  original_url: string;
  ios_url: string | null;
  android_url: string | null;
  expired: boolean;
  limit_reached: boolean;
  protected: boolean;
  disabled: boolean;
  flagged: boolean;
}

/**
 * peekLink resolves `code` for a visitor on `os` without counting a click (HEAD), with the same
 * verdicts as a counted click. A link stops resolving at the instant it expires: the database clock
 * decides, as it does for clicks.
 */
export async function peekLink(code: string, os: string): Promise<Resolution> {
  if (!isLinkCode(code)) return { gone: "not_found" };
  const row = await db.queryRow<LinkState>`
    SELECT original_url, ios_url, android_url, (expires_at IS NOT NULL AND expires_at <= now()) AS expired,
           (max_clicks IS NOT NULL AND clicks >= max_clicks) AS limit_reached, password_hash IS NOT NULL AS protected,
           disabled_at IS NOT NULL AS disabled, flagged
    FROM urls WHERE code = ${code}
  `;
  if (row === null) return { gone: "not_found" };
  if (row.expired) return { gone: "expired" };
  if (row.disabled) return { gone: "disabled" };
  if (row.protected) return { gone: "password_required" };
  if (row.limit_reached) return { gone: "limit_reached" };
  const target = targetFor({ originalUrl: row.original_url, iosUrl: row.ios_url, androidUrl: row.android_url }, os);
  return row.flagged ? { warn: target } : { target };
}
