// POST /shorten: stores a new short link with its QR image and its url-shortened event, then publishes the event.
import { api, APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { PreconditionFailed } from "encore.dev/storage/objects";
import type { MatchesRegexp, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { validateAlias } from "./alias";
import { ownHosts, publicBaseUrl, shortUrl } from "./base-url";
import { qrCodes } from "./bucket";
import { callerID } from "./caller";
import { allocateCode } from "./code";
import { db } from "./db";
import { limitShorten } from "./limits";
import { publishQueued, type QueuedEvent } from "./outbox";
import { validateExpiry } from "./expiry";
import { qrCodeUrl, qrObjectName, qrTarget, renderQrPng } from "./qr";
import { validateTarget } from "./validate-target";
import { validateMaxClicks } from "./click-limit";
import { linkPasswordHash } from "./link-password";

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
}

/** ShortenResponse is the new short link. */
export interface ShortenResponse {
  code: string;
  /** The public base URL followed by "/<code>". */
  shortUrl: string;
  /** A public PNG QR code of shortUrl. */
  qrCodeUrl: string;
  /** Present when the link expires. */
  expiresAt?: Date;
}

/** Claimed is a stored link's queued url-shortened event and its expiry. */
interface Claimed {
  queued: QueuedEvent;
  expiresAt: Date | null;
}

/** NewLink is a checked link to store, under a code still to be claimed. */
export interface NewLink {
  originalUrl: string;
  creator: string;
  expiresAt: Date | null;
  passwordHash: string | null;
  maxClicks: number | null;
}

/** StoredLink is the row just inserted and the id of its outbox event. */
interface StoredLink {
  code: string;
  created_at: Date;
  expires_at: Date | null;
  outbox_id: number;
}

/**
 * shorten stores `url` under a fresh code for the signed-in user, or under the alias they chose. Aliases and
 * generated codes share the one unique `code` column, so a generated code that hits an alias is retried
 * like any clash, and a taken alias is already_exists. Rate limited per address and per user.
 */
export const shorten = api(
  { expose: true, auth: true, method: "POST", path: "/shorten" },
  async ({ url, alias, expiresAt, password, maxClicks }: ShortenRequest): Promise<ShortenResponse> => {
    const creator = callerID();
    const base = publicBaseUrl();
    const originalUrl = validateTarget(url, ownHosts(base));
    const expiry = expiresAt === undefined ? null : validateExpiry(expiresAt);
    const limit = maxClicks === undefined ? null : validateMaxClicks(maxClicks);
    if (alias !== undefined) validateAlias(alias);
    await limitShorten(creator);
    // Hashing costs tens of milliseconds, so it comes after every cheap check.
    const passwordHash = password === undefined ? null : await linkPasswordHash(password);
    const link: NewLink = { originalUrl, creator, expiresAt: expiry, passwordHash, maxClicks: limit };
    const claim = (code: string) => store(code, link, base);
    const claimed = alias === undefined ? await allocateCode(claim) : await claimAlias(alias, claim);
    await publishQueued(claimed.queued);
    const { code } = claimed.queued.event;
    return { code, shortUrl: shortUrl(base, code), qrCodeUrl: qrCodeUrl(code), expiresAt: claimed.expiresAt ?? undefined };
  },
);

/** claimAlias stores the link under the alias the user chose, which only one link can hold. */
async function claimAlias(alias: string, claim: (code: string) => Promise<Claimed | null>): Promise<Claimed> {
  const link = await claim(alias);
  if (link === null) throw APIError.alreadyExists("alias is already taken");
  return link;
}

/**
 * store claims `code` for the link: its QR image first, then its row and its outbox event in one
 * statement (one implicit transaction, one round trip); null means the code is taken.
 *
 * Image first, so a stored link always has its image and a failed upload leaves no row.
 * `notExists` keeps the upload from replacing another link's image: an existing `<code>.png` means the
 * code is (or was) someone else's, so it counts as a clash. If the upload succeeds and the row then
 * clashes, the row that owns the code had no image; the one just written encodes that row's own short
 * URL (the image depends only on the code and the base URL), so leaving it is right, and removing it
 * could race with that owner.
 */
async function store(code: string, link: NewLink, base: string): Promise<Claimed | null> {
  const object = qrObjectName(code);
  const png = renderQrPng(qrTarget(shortUrl(base, code)));
  try {
    await qrCodes.upload(object, png, { contentType: "image/png", preconditions: { notExists: true } });
  } catch (err) {
    if (err instanceof PreconditionFailed) return null;
    log.error(err, "could not upload QR code", { code });
    throw APIError.unavailable("could not store the QR code, please try again");
  }
  try {
    // The event row (url/outbox.ts) is written with the link or not at all: a taken code writes neither.
    const { originalUrl } = link;
    const stored = await db.queryRow<StoredLink>`
      WITH link AS (
        INSERT INTO urls (code, original_url, creator, expires_at, password_hash, max_clicks)
        VALUES (${code}, ${originalUrl}, ${link.creator}, ${link.expiresAt}, ${link.passwordHash}, ${link.maxClicks})
        ON CONFLICT (code) DO NOTHING
        RETURNING code, original_url, created_at, expires_at
      ), queued AS (
        INSERT INTO url_shortened_outbox (code, original_url, created_at)
        SELECT code, original_url, created_at FROM link
        RETURNING id
      )
      SELECT link.code, link.created_at, link.expires_at, queued.id AS outbox_id FROM link CROSS JOIN queued
    `;
    if (stored === null) return null;
    const queued = { id: stored.outbox_id, event: { code: stored.code, originalUrl, timestamp: stored.created_at } };
    return { queued, expiresAt: stored.expires_at };
  } catch (err) {
    // No row holds the code, so the image just uploaded belongs to nobody.
    await qrCodes.remove(object).catch((removeErr) => log.error(removeErr, "could not remove orphaned QR code", { code }));
    throw err;
  }
}
