import { api, APIError } from "encore.dev/api";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { inTransaction } from "../lib/transaction";
import { checkPassword, PASSWORD_MIN_BYTES } from "./credentials";
import { db } from "./db";
import { hashPassword, verifyPassword } from "./password";
import { endSessionsOfUser } from "./sessions";
import { clearLoginFailures, reserveLoginAttempt } from "./throttle";
import { findUserWithHash } from "./users";

/** ChangePasswordRequest proves the current password and sets a new one (the sign-up rules apply). */
export interface ChangePasswordRequest {
  currentPassword: string & MinLen<1> & MaxLen<128>;
  newPassword: string & MinLen<8> & MaxLen<128>;
}

/** ChangePasswordResponse says how many of the user's other sessions the change ended. */
export interface ChangePasswordResponse {
  otherSessionsEnded: number;
}

/**
 * changePassword replaces the signed-in user's password and ends their other sessions (the one that
 * asked stays signed in). Wrong guesses of the current password count toward the login throttle of
 * the email, so a stolen access token cannot be used to try passwords without limit.
 */
export const changePassword = api(
  { expose: true, auth: true, method: "POST", path: "/auth/password" },
  async (req: ChangePasswordRequest): Promise<ChangePasswordResponse> => {
    const auth = getAuthData();
    if (!auth) throw APIError.unauthenticated("not signed in");
    if (auth.sessionID === undefined) throw APIError.permissionDenied("an API key cannot change the password: sign in with a password");
    checkPassword(req.currentPassword, 1);
    checkPassword(req.newPassword, PASSWORD_MIN_BYTES);
    await reserveLoginAttempt(auth.email);
    const user = await findUserWithHash(auth.email);
    if (!user || user.id !== auth.userID) throw APIError.unauthenticated("not signed in");
    if (!(await verifyPassword(req.currentPassword, user.passwordHash))) {
      throw APIError.permissionDenied("current password is incorrect");
    }
    if (req.newPassword.normalize("NFKC") === req.currentPassword.normalize("NFKC")) {
      throw APIError.invalidArgument("newPassword must differ from the current password");
    }
    await clearLoginFailures(auth.email);
    const passwordHash = await hashPassword(req.newPassword);
    const otherSessionsEnded = await inTransaction(db, async (tx) => {
      await tx.exec`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${auth.userID}::text::bigint`;
      return endSessionsOfUser(auth.userID, "password changed", auth.sessionID!, tx);
    });
    return { otherSessionsEnded };
  },
);
