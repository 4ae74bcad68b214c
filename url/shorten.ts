// POST /shorten: stores a new short link with its QR image and its url-shortened event, then publishes the event.
import { api } from "encore.dev/api";
import type { MatchesRegexp, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { currentActor, workspaceAccess } from "./access";
import { validateAlias } from "./alias";
import { ownHosts, publicBaseUrl, shortUrl } from "./base-url";
import { refuseBlockedTargets } from "./abuse/blocklist";
import { limitShorten } from "./limits";
import { checkLinkFields, hashLinkPassword } from "./new-link";
import { publishQueued } from "./outbox";
import { qrCodeUrl } from "./qr";
import { createLink } from "./store-link";
import type { Tag } from "./tags";
import type { Utm } from "./utm";

/** ShortenRequest names the link to shorten. */
export interface ShortenRequest {
  /** An absolute http(s) URL, at most 2048 bytes, without credentials, not on this shortener. */
  url: string;
  /** The code to use instead of a generated one: 3 to 64 letters, digits, '_' or '-', case-sensitive. */
  alias?: string & MinLen<3> & MaxLen<64> & MatchesRegexp<"^[A-Za-z0-9_-]+$">;
  /** When the link stops resolving: in the future, at most 5 years ahead. */
  expiresAt?: Date;
  /** A password visitors must give (8 to 128 characters); stored only as a hash. */
  password?: string & MinLen<8> & MaxLen<512>;
  /** How many clicks the link sends on (1 to 10^9) before it answers "reached its click limit". */
  maxClicks?: number & Min<1> & Max<1000000000>;
  /** At most 10 labels, each 1 to 32 letters, digits, '-' or '_'; stored lower-case. */
  tags?: Tag[] & MaxLen<10>;
  /** Campaign parameters merged into url's query (each at most 100 characters); the rest of url is kept as it is. */
  utm?: Utm;
  /** Where iPhone and iPad visitors go instead of url; checked like url. */
  iosUrl?: string;
  /** Where Android visitors go instead of url; checked like url. */
  androidUrl?: string;
  /** The workspace that will own the link (the caller must be at least a member); default: the caller's personal one. */
  workspaceId?: string;
}

/** ShortenResponse is the new short link. */
export interface ShortenResponse {
  code: string;
  /** The public base URL followed by "/<code>". */
  shortUrl: string;
  /** A public PNG QR code of shortUrl. */
  qrCodeUrl: string;
  /** The stored target: url with the UTM parameters merged in. */
  originalUrl: string;
  /** Present when the link expires. */
  expiresAt?: Date;
}

/**
 * shorten stores `url` under a fresh code, or under the alias the caller chose, in one of its workspaces. Aliases and
 * generated codes share the one unique `code` column, so a generated code that hits an alias is retried
 * like any clash, and a taken alias is already_exists. Rate limited per address and per user.
 */
export const shorten = api(
  { expose: true, auth: true, method: "POST", path: "/shorten" },
  async ({ alias, workspaceId, ...fields }: ShortenRequest): Promise<ShortenResponse> => {
    const actor = currentActor();
    const base = publicBaseUrl();
    const { workspaceId: into } = await workspaceAccess(actor, workspaceId, "link.create");
    const checked = checkLinkFields(fields, { actor, workspaceId: into }, ownHosts(base));
    if (alias !== undefined) validateAlias(alias);
    await refuseBlockedTargets([checked.originalUrl, checked.iosUrl, checked.androidUrl]);
    await limitShorten(actor.userId);
    // Hashing costs tens of milliseconds, so it comes after every cheap check and the rate limit.
    const claimed = await createLink(await hashLinkPassword(checked), alias, base);
    await publishQueued(claimed.queued);
    const { code, originalUrl } = claimed.queued.event;
    return { code, shortUrl: shortUrl(base, code), qrCodeUrl: qrCodeUrl(code), originalUrl, expiresAt: claimed.expiresAt ?? undefined };
  },
);
