// Link expiry: when a link stops resolving, chosen at shorten time or later with PATCH.
import { APIError } from "encore.dev/api";

/** MAX_EXPIRY_YEARS is how far ahead an expiry may be set. */
export const MAX_EXPIRY_YEARS = 5;

/** validateExpiry returns `expiresAt` if it is in the future and at most 5 years ahead of `now`. */
export function validateExpiry(expiresAt: Date, now: Date = new Date()): Date {
  if (Number.isNaN(expiresAt.getTime())) throw APIError.invalidArgument("expiresAt is not a valid time");
  if (expiresAt.getTime() <= now.getTime()) throw APIError.invalidArgument("expiresAt must be in the future");
  const latest = new Date(now);
  latest.setUTCFullYear(latest.getUTCFullYear() + MAX_EXPIRY_YEARS);
  if (expiresAt.getTime() > latest.getTime()) {
    throw APIError.invalidArgument(`expiresAt must be at most ${MAX_EXPIRY_YEARS} years ahead`);
  }
  return expiresAt;
}
