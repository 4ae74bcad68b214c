import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

/** callerID is the signed-in user's ID; auth: true guarantees one over HTTP, a direct call may lack it. */
export function callerID(): string {
  const auth = getAuthData();
  if (auth === null) throw APIError.unauthenticated("sign in to manage short links");
  return auth.userID;
}
