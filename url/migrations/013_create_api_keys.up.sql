-- API keys: a workspace's credentials for scripts. Only the key's SHA-256 is kept (256 random bits need
-- no slow hash), with its first 8 characters so people can tell keys apart; the key itself is shown once.
-- last_used_at is written at most once a minute per key (url/api-key-lookup.ts).
CREATE TABLE api_keys (
    id BIGSERIAL PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    prefix TEXT NOT NULL CHECK (length(prefix) = 8),
    key_hash BYTEA NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    scopes TEXT[] NOT NULL CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['links:read', 'links:write', 'analytics:read']),
    created_by TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ,
    revoked_at TIMESTAMPTZ,
    last_used_at TIMESTAMPTZ
);

-- Serves GET /workspaces/:id/keys.
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, id);
