// Rate limits of sign-up and login per client address, counted in the app's one cache cluster.
import { CacheCluster, IntKeyspace } from "encore.dev/storage/cache";
import { clientAddress } from "../ratelimit/client-address";
import { FixedWindowLimit, type WindowKey } from "../ratelimit/fixed-window";

/**
 * rateLimits holds every rate-limit counter of the app (the url service names it too). Each counter
 * expires with its window, so under memory pressure Redis evicts the ones closest to expiring.
 */
export const rateLimits = new CacheCluster("rate-limits", { evictionPolicy: "volatile-ttl" });

const counters = new IntKeyspace<WindowKey>(rateLimits, { keyPattern: "auth/:limit/:subject/:window" });

const signupsPerAddress = new FixedWindowLimit(counters, "signup", "too many sign-ups from this address");
const loginsPerAddress = new FixedWindowLimit(counters, "login", "too many login attempts from this address");

/** limitSignup counts a sign-up from the caller's address (HTTP callers only). */
export async function limitSignup(): Promise<void> {
  const address = clientAddress();
  if (address !== null) await signupsPerAddress.hit(address);
}

/** limitLogin counts a login attempt from the caller's address (HTTP callers only). */
export async function limitLogin(): Promise<void> {
  const address = clientAddress();
  if (address !== null) await loginsPerAddress.hit(address);
}
