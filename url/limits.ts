// Rate limits of shortening, per client address and per user, in the cluster the auth service declares.
import { CacheCluster, IntKeyspace } from "encore.dev/storage/cache";
import { clientAddress } from "../ratelimit/client-address";
import { FixedWindowLimit, type WindowKey } from "../ratelimit/fixed-window";

const rateLimits = CacheCluster.named("rate-limits");
const counters = new IntKeyspace<WindowKey>(rateLimits, { keyPattern: "url/:limit/:subject/:window" });

const shortensPerAddress = new FixedWindowLimit(counters, "shorten", "too many links shortened from this address");
const shortensPerUser = new FixedWindowLimit(counters, "shorten-per-user", "too many links shortened by this account");
const importsPerUser = new FixedWindowLimit(counters, "import", "too many imports by this account");
const unlocksPerAddress = new FixedWindowLimit(counters, "unlock", "too many password attempts for this link");
const reportsPerAddress = new FixedWindowLimit(counters, "report", "too many reports from this address");

/** limitShorten counts a new link against the caller's address (HTTP callers only) and against the user. */
export async function limitShorten(userID: string): Promise<void> {
  const address = clientAddress();
  if (address !== null) await shortensPerAddress.hit(address);
  await shortensPerUser.hit(userID);
}

/**
 * limitUnlock counts one password attempt on `code` from the caller's address, so guessing a link's
 * password is slow whichever links an attacker spreads the guesses over.
 */
export async function limitUnlock(code: string): Promise<void> {
  const address = clientAddress();
  if (address !== null) await unlocksPerAddress.hit(`${address} ${code}`);
}

/** limitImport counts one bulk import (up to 10,000 links) against the user, instead of shorten's per-link limits. */
export function limitImport(userID: string): Promise<void> {
  return importsPerUser.hit(userID);
}

/** limitReport counts one abuse report from the caller's address (the address is a cache key for the window, never stored). */
export async function limitReport(): Promise<void> {
  const address = clientAddress();
  if (address !== null) await reportsPerAddress.hit(address);
}
