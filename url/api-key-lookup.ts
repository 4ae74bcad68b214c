// The auth handler's way into the keys table, which lives in the url database (auth/api-keys.ts calls it).
import { timingSafeEqual } from "node:crypto";
import { api, APIError } from "encore.dev/api";
import { db } from "./db";
import type { KeyScope } from "./key-scopes";

/** LookupApiKeyRequest carries the presented key's SHA-256, hex: the key itself never leaves the gateway. */
export interface LookupApiKeyRequest {
  hash: string;
}

/** ApiKeyIdentity is what a live key acts as. */
export interface ApiKeyIdentity {
  id: string;
  name: string;
  workspaceId: string;
  scopes: KeyScope[];
  createdBy: string;
}

/**
 * lookupApiKey finds a live key by its hash (the unique index), confirms it in constant time, and notes
 * its use at most once a minute, in the table; an unknown, revoked or expired key is not_found.
 */
export const lookupApiKey = api(
  { expose: false, method: "POST", path: "/internal/api-keys/lookup" },
  async ({ hash }: LookupApiKeyRequest): Promise<ApiKeyIdentity> => {
    const missing = APIError.notFound("API key not found, revoked or expired");
    if (!/^[0-9a-f]{64}$/.test(hash)) throw missing;
    const wanted = Buffer.from(hash, "hex");
    const row = await db.queryRow<ApiKeyIdentity & { keyHash: Uint8Array; live: boolean }>`
      SELECT id::text AS id, name, workspace_id::text AS "workspaceId", scopes, created_by AS "createdBy", key_hash AS "keyHash",
             revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AS live
      FROM api_keys WHERE key_hash = ${wanted}
    `;
    if (row === null || !timingSafeEqual(Buffer.from(row.keyHash), wanted) || !row.live) throw missing;
    await db.exec`
      UPDATE api_keys SET last_used_at = now()
      WHERE id = ${row.id}::text::bigint AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
    `;
    return { id: row.id, name: row.name, workspaceId: row.workspaceId, scopes: row.scopes, createdBy: row.createdBy };
  },
);
