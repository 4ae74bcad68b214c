import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

/** callerOwner is who the caller's webhooks belong to: the owner link events name for their links. */
export function callerOwner(): string {
  const auth = getAuthData();
  if (auth === null) throw APIError.unauthenticated("sign in to manage webhooks");
  return auth.userID;
}
