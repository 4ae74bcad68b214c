// Site admins: the accounts named by ADMIN_EMAILS (comma-separated, case-insensitive), read on each
// use so an operator's change needs only a restart and a test can set it. Everyone else gets
// permission_denied from the admin endpoints.
import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

/** The admins' emails, lowercased. */
function adminEmails(): Set<string> {
  return new Set(
    (process.env.ADMIN_EMAILS ?? "")
      .split(",")
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== ""),
  );
}

/** isSiteAdmin tells whether the account with this email is a site admin. */
export function isSiteAdmin(email: string): boolean {
  return adminEmails().has(email.toLowerCase());
}

/** requireSiteAdmin returns the calling admin's user id, or throws permission_denied for anyone else and for any API key. */
export function requireSiteAdmin(): string {
  const auth = getAuthData();
  if (auth === null) throw APIError.unauthenticated("sign in as a site admin");
  // A site admin's API key carries its creator's email, but moderating is for the person, signed in.
  if (auth.keyID !== undefined) throw APIError.permissionDenied("an API key cannot do this: sign in with a password");
  if (!isSiteAdmin(auth.email)) throw APIError.permissionDenied("only site admins may do this");
  return auth.userID;
}
