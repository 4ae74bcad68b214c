// API keys at the gateway: the url service keeps the keys (url/api-key-lookup.ts); here a presented key
// becomes auth data for its creator, if the key is live and its creator not banned.
import { createHash } from "node:crypto";
import { APIError, ErrCode } from "encore.dev/api";
import { url } from "~encore/clients";
import type { AuthData } from "./auth";
import { findUser } from "./users";

/** verifyApiKey answers the key's auth data, or unauthenticated for an unknown, revoked or expired key or a banned creator. */
export async function verifyApiKey(key: string): Promise<AuthData> {
  const hash = createHash("sha256").update(key, "utf8").digest("hex");
  let found;
  try {
    found = await url.lookupApiKey({ hash });
  } catch (err) {
    if (err instanceof APIError && err.code === ErrCode.NotFound) throw APIError.unauthenticated("invalid API key");
    throw err;
  }
  const user = await findUser(found.createdBy);
  if (!user) throw APIError.unauthenticated("invalid API key");
  return {
    userID: user.id,
    email: user.email,
    keyID: found.id,
    keyName: found.name,
    workspaceID: found.workspaceId,
    scopes: found.scopes,
  };
}
