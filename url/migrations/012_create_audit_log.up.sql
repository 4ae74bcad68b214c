-- The audit log: one row per change to a workspace's links, members, invitations, keys or the workspace
-- itself, written in the transaction of the change (url/audit-log.ts), so an acknowledged change always
-- has its entry and a refused or rolled-back one never does. No IP address, ever.
CREATE TABLE audit_log (
    id BIGSERIAL PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id),
    at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    actor_type TEXT NOT NULL CHECK (actor_type IN ('user', 'key')),
    actor_id TEXT NOT NULL,
    -- The actor's email or key name when the change was made: the log keeps what was true then.
    actor_label TEXT NOT NULL,
    action TEXT NOT NULL,
    target_type TEXT NOT NULL,
    target_id TEXT NOT NULL,
    details JSONB NOT NULL DEFAULT '{}'
);

-- Serves GET /workspaces/:id/audit: one workspace's entries, newest first, resumed from a cursor id.
CREATE INDEX audit_log_workspace_id_idx ON audit_log (workspace_id, id DESC);

-- Entries are appended, never changed or removed, whatever the code above this table does.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log entries cannot be changed or deleted';
END;
$$;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
