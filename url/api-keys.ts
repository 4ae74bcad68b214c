// API keys of a workspace: an owner or admin, signed in with a password, makes one (shown once), lists
// them (never the key) and revokes one. Only the key's SHA-256 is stored (migration 013).
import { createHash, randomBytes } from "node:crypto";
import { api, APIError } from "encore.dev/api";
import { API_KEY_PREFIX } from "../lib/api-key-format";
import type { MaxLen, MinLen } from "encore.dev/validate";
import { currentUser, workspaceAccess } from "./access";
import { recordAudit } from "./audit-log";
import { db } from "./db";
import { isKeyScope, KEY_SCOPES, type KeyScope } from "./key-scopes";
import { inTransaction } from "./transaction";
import { workspaceName } from "./workspaces";

/** CreateApiKeyRequest names the key, its scopes and, optionally, when it stops working. */
export interface CreateApiKeyRequest {
  id: string;
  name: string & MinLen<1> & MaxLen<100>;
  scopes: KeyScope[] & MinLen<1> & MaxLen<3>;
  expiresAt?: Date;
}

/** NewApiKey is a key just made; `key` is shown here only. */
export interface NewApiKey {
  id: string;
  name: string;
  key: string;
  scopes: KeyScope[];
  createdAt: Date;
  expiresAt: Date | null;
}

/** ApiKey is a key as listed: its first 8 characters tell it apart, the rest is never shown again. */
export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** ListApiKeysResponse is every key of the workspace, oldest first. */
export interface ListApiKeysResponse {
  keys: ApiKey[];
}

/** ApiKeyRef names one key of a workspace. */
export interface ApiKeyRef {
  id: string;
  keyId: string;
}

/** keyHash is what the table keeps of a key. */
function keyHash(key: string): Buffer {
  return createHash("sha256").update(key, "utf8").digest();
}

/** keyScopes refuses an empty or unknown scope list and drops repeats. */
function keyScopes(scopes: string[]): KeyScope[] {
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every(isKeyScope)) {
    throw APIError.invalidArgument(`scopes must be a non-empty list of ${KEY_SCOPES.join(", ")}`);
  }
  return KEY_SCOPES.filter((scope) => scopes.includes(scope));
}

/** createApiKey makes a key for the workspace; a key cannot make keys (currentUser). */
export const createApiKey = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/keys" },
  async ({ id, name, scopes, expiresAt }: CreateApiKeyRequest): Promise<NewApiKey> => {
    const actor = currentUser();
    const clean = workspaceName(name);
    const granted = keyScopes(scopes);
    if (expiresAt !== undefined && !(expiresAt.getTime() > Date.now())) throw APIError.invalidArgument("expiresAt must be in the future");
    const key = API_KEY_PREFIX + randomBytes(32).toString("base64url");
    return inTransaction(async (tx) => {
      await workspaceAccess(actor, id, "keys.manage", tx);
      const row = await tx.queryRow<{ id: string; createdAt: Date; expiresAt: Date | null }>`
        INSERT INTO api_keys (workspace_id, name, prefix, key_hash, scopes, created_by, expires_at)
        VALUES (${id}::text::bigint, ${clean}, ${key.slice(0, 8)}, ${keyHash(key)}, ${granted}, ${actor.userId}, ${expiresAt ?? null})
        RETURNING id::text AS id, created_at AS "createdAt", expires_at AS "expiresAt"
      `;
      const details = { name: clean, scopes: granted, expiresAt: row!.expiresAt };
      await recordAudit(tx, { workspaceId: id, actor, action: "key.created", target: { type: "key", id: row!.id }, details });
      return { id: row!.id, name: clean, key, scopes: granted, createdAt: row!.createdAt, expiresAt: row!.expiresAt };
    });
  },
);

/** listApiKeys lists the workspace's keys, revoked ones included, without the keys themselves. */
export const listApiKeys = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/keys" },
  async ({ id }: { id: string }): Promise<ListApiKeysResponse> => {
    await workspaceAccess(currentUser(), id, "keys.manage");
    const keys = await db.queryAll<ApiKey>`
      SELECT id::text AS id, name, prefix, scopes, created_at AS "createdAt", expires_at AS "expiresAt",
             last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"
      FROM api_keys WHERE workspace_id = ${id}::text::bigint ORDER BY id
    `;
    return { keys };
  },
);

/** revokeApiKey stops a key at once: the next request with it is unauthenticated. */
export const revokeApiKey = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/keys/:keyId" },
  async ({ id, keyId }: ApiKeyRef): Promise<void> => {
    const actor = currentUser();
    await inTransaction(async (tx) => {
      await workspaceAccess(actor, id, "keys.manage", tx);
      if (!/^[1-9][0-9]{0,17}$/.test(keyId)) throw APIError.notFound("API key not found");
      const revoked = await tx.queryRow<{ name: string }>`
        UPDATE api_keys SET revoked_at = now()
        WHERE id = ${keyId}::text::bigint AND workspace_id = ${id}::text::bigint AND revoked_at IS NULL
        RETURNING name
      `;
      if (revoked === null) throw APIError.notFound("API key not found or already revoked");
      await recordAudit(tx, {
        workspaceId: id,
        actor,
        action: "key.revoked",
        target: { type: "key", id: keyId },
        details: { name: revoked.name },
      });
    });
  },
);
