// Login throttle per normalized email, stored in the auth database so every instance sees it.
// An attempt is counted before the password is checked (so concurrent guesses cannot slip past
// the limit) and the count is cleared by a successful login. Unknown emails are throttled the
// same way, so the throttle does not reveal which accounts exist.
import { APIError } from "encore.dev/api";
import { db } from "./db";

/** ThrottlePolicy is how many failed attempts an email gets per window. */
export interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
}

/** LOGIN_THROTTLE allows 5 failed logins per email in a 15-minute window that opens at the first failure. */
export const LOGIN_THROTTLE: ThrottlePolicy = { maxFailures: 5, windowMs: 15 * 60 * 1000 };

/**
 * reserveLoginAttempt counts one attempt for email, or throws resource_exhausted when the email
 * already used up its attempts in the current window (until that window ends).
 */
export async function reserveLoginAttempt(email: string, now: Date = new Date(), policy: ThrottlePolicy = LOGIN_THROTTLE): Promise<void> {
  const windowOpenedBefore = new Date(now.getTime() - policy.windowMs);
  const row = await db.queryRow<{ failures: number; window_start: Date }>`
    INSERT INTO login_throttle AS t (email, failures, window_start)
    VALUES (${email}, 1, ${now})
    ON CONFLICT (email) DO UPDATE SET
      failures = CASE WHEN t.window_start <= ${windowOpenedBefore} THEN 1 ELSE t.failures + 1 END,
      window_start = CASE WHEN t.window_start <= ${windowOpenedBefore} THEN ${now} ELSE t.window_start END
    RETURNING failures, window_start
  `;
  await pruneExpiredWindows(windowOpenedBefore);
  if (row && row.failures > policy.maxFailures) {
    const retryAfterMs = row.window_start.getTime() + policy.windowMs - now.getTime();
    throw APIError.resourceExhausted("too many failed login attempts, try again later").withDetails({
      retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
    });
  }
}

/** How many expired rows one attempt removes: more than the one row an attempt can add, so the table stays bounded. */
export const PRUNE_PER_ATTEMPT = 10;

/**
 * pruneExpiredWindows deletes a few rows whose window has ended. Such a row means nothing any more
 * (the email's next attempt would start a new window), but without this every email ever tried,
 * existing or made up, would keep a row forever.
 */
async function pruneExpiredWindows(windowOpenedBefore: Date): Promise<void> {
  await db.exec`
    DELETE FROM login_throttle
    WHERE email IN (
      SELECT email FROM login_throttle WHERE window_start <= ${windowOpenedBefore} LIMIT ${PRUNE_PER_ATTEMPT}
    ) AND window_start <= ${windowOpenedBefore}
  `;
}

/** clearLoginFailures forgets the attempts for email after a successful login. */
export async function clearLoginFailures(email: string): Promise<void> {
  await db.exec`DELETE FROM login_throttle WHERE email = ${email}`;
}
