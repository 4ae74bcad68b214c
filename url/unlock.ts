// POST /:code/unlock: a visitor gives a protected link's password and is told where it leads.
import { currentRequest, type APICallMeta } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { isLinkCode } from "./alias";
import { db } from "./db";
import { limitUnlock } from "./limits";
import { linkPasswordMatches } from "./link-password";
import { goneError } from "./resolution";
import { recordClick } from "./resolve";
import { describeVisit } from "./visit";

/** UnlockRequest names the link and the password the visitor was given. */
export interface UnlockRequest {
  code: string;
  /** At most 128 characters, so at most 512 UTF-8 bytes. */
  password: string & MaxLen<512>;
}

/** UnlockResponse is where the link leads. */
export interface UnlockResponse {
  url: string;
}

/**
 * unlock checks the password of a protected link and, when it is right, counts one click and answers
 * the target; a wrong one is permission_denied and counts nothing. Attempts, right or wrong, are rate
 * limited per client address and link (RATE_LIMIT_UNLOCK). A link without a password unlocks with any,
 * as a plain visit. The visit is described from this request, with the page's query (a QR scan, a
 * campaign) passed on by the password page.
 */
export const unlock = api(
  { expose: true, method: "POST", path: "/:code/unlock", sensitive: true },
  async ({ code, password }: UnlockRequest): Promise<UnlockResponse> => {
    if (!isLinkCode(code)) throw goneError("not_found");
    await limitUnlock(code);
    const row = await db.queryRow<{ password_hash: string | null }>`SELECT password_hash FROM urls WHERE code = ${code}`;
    if (row === null) throw goneError("not_found");
    if (row.password_hash !== null && !(await linkPasswordMatches(password, row.password_hash))) {
      // An exhausted link says so only to someone who knows the password; an expired one says so to
      // anyone, here as on GET /:code, where expiry is checked before the password.
      throw APIError.permissionDenied("wrong password");
    }
    const req = currentRequest() as APICallMeta;
    // The visitor typed the link's password: a flagged link's warning would only stand in their way twice.
    const resolution = await recordClick(code, describeVisit(req.pathAndQuery, req.headers), true, true);
    if ("gone" in resolution) throw goneError(resolution.gone);
    return { url: "target" in resolution ? resolution.target : resolution.warn };
  },
);
