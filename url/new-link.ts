// The fields of a new link, checked the same way for POST /shorten and for each row of an import.
import type { Actor } from "./access";
import { validateExpiry } from "./expiry";
import { validateMaxClicks } from "./click-limit";
import { linkPasswordHash, validateLinkPassword } from "./link-password";
import { validateTags } from "./tags";
import { withUtm, type Utm } from "./utm";
import { validateTarget } from "./validate-target";

/** LinkFields are a new link's fields as a caller gives them (alias aside). */
export interface LinkFields {
  url: string;
  expiresAt?: Date;
  password?: string;
  maxClicks?: number;
  tags?: string[];
  utm?: Utm;
  iosUrl?: string;
  androidUrl?: string;
}

/** NewLink is a checked link to store, under a code still to be claimed. */
export interface NewLink {
  /** The target with the UTM parameters merged in. */
  originalUrl: string;
  /** Who creates it; recorded as the link's creator and in the audit log. */
  actor: Actor;
  /** The workspace that owns the link. */
  workspaceId: string;
  expiresAt: Date | null;
  passwordHash: string | null;
  maxClicks: number | null;
  tags: string[];
  iosUrl: string | null;
  androidUrl: string | null;
}

/** Ownership is who creates a link and the workspace it goes into. */
export type Ownership = Pick<NewLink, "actor" | "workspaceId">;

/** CheckedLink is a NewLink whose password is checked but not yet hashed (hashing costs tens of ms). */
export type CheckedLink = Omit<NewLink, "passwordHash"> & { password: string | null };

/** checkLinkFields checks every field, throwing invalid_argument naming the first bad one. */
export function checkLinkFields(fields: LinkFields, owner: Ownership, ownHosts: readonly string[]): CheckedLink {
  const target = validateTarget(fields.url, ownHosts);
  return {
    originalUrl: fields.utm === undefined ? target : withUtm(target, fields.utm, ownHosts),
    ...owner,
    expiresAt: fields.expiresAt === undefined ? null : validateExpiry(fields.expiresAt),
    password: fields.password === undefined ? null : validateLinkPassword(fields.password),
    maxClicks: fields.maxClicks === undefined ? null : validateMaxClicks(fields.maxClicks),
    tags: fields.tags === undefined ? [] : validateTags(fields.tags),
    iosUrl: fields.iosUrl === undefined ? null : validateTarget(fields.iosUrl, ownHosts, "iosUrl"),
    androidUrl: fields.androidUrl === undefined ? null : validateTarget(fields.androidUrl, ownHosts, "androidUrl"),
  };
}

/** hashLinkPassword turns a checked link into one ready to store. */
export async function hashLinkPassword({ password, ...link }: CheckedLink): Promise<NewLink> {
  return { ...link, passwordHash: password === null ? null : await linkPasswordHash(password) };
}
