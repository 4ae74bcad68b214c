// Fixed-window rate limits counted in a cache keyspace, the way Encore's caching docs count requests:
// one IntKeyspace counter per subject and window, expiring when its window ends.
import { APIError } from "encore.dev/api";
import log from "encore.dev/log";
import { type IntKeyspace, expireIn } from "encore.dev/storage/cache";
import { type LimitName, windowLimit } from "./settings";

/**
 * The key of one counter; window is the number of whole windows since the Unix epoch. A keyspace of
 * them names every field in its keyPattern, e.g. "auth/:limit/:subject/:window".
 */
export interface WindowKey {
  limit: string;
  subject: string;
  window: number;
}

export class FixedWindowLimit {
  constructor(
    private readonly counters: IntKeyspace<WindowKey>,
    readonly name: LimitName,
    /** The message of the resource_exhausted error, e.g. "too many sign-ups from this address". */
    private readonly message: string,
  ) {}

  /**
   * Counts one request by `subject` and throws resource_exhausted, with the seconds until the window
   * ends as details.retryAfterSeconds, once the window's limit is used up. A cache failure lets the
   * request through (and is logged): an outage of the cache must not stop sign-ups and logins.
   */
  async hit(subject: string, now: number = Date.now()): Promise<void> {
    const limit = windowLimit(this.name);
    if (limit === null) return;
    const window = Math.floor(now / limit.windowMs);
    const endsAt = (window + 1) * limit.windowMs;
    let count: number;
    try {
      count = await this.counters.increment({ limit: this.name, subject, window }, 1, { expiry: expireIn(endsAt - now) });
    } catch (err) {
      log.error(err, "rate limit not checked: the cache failed", { limit: this.name });
      return;
    }
    if (count > limit.max) {
      const retryAfterSeconds = Math.max(1, Math.ceil((endsAt - now) / 1000));
      throw APIError.resourceExhausted(`${this.message}, try again later`).withDetails({ retryAfterSeconds });
    }
  }
}
