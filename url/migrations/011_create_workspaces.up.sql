-- Workspaces own links. Every user has a personal workspace (personal_of = the user's id, one each);
-- shared ones have none. Users live in the auth database, so user ids are TEXT without a foreign key,
-- as urls.creator is (migration 002). Numbered 011: 009 and 010 belong to link controls (issue 28).
CREATE TABLE workspaces (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    personal_of TEXT UNIQUE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Who may do what in a workspace; a workspace always keeps at least one owner (url/members.ts).
CREATE TABLE workspace_members (
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    joined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);

-- Serves "the caller's workspaces" (GET /workspaces and every access check by user).
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id, workspace_id);

-- Invitations: only the SHA-256 of the token is kept (a 256-bit random token needs no slow hash), so
-- the table cannot be used to join. Single use: accepted_by is set once, under the row's lock.
CREATE TABLE workspace_invites (
    id BIGSERIAL PRIMARY KEY,
    workspace_id BIGINT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    token_hash BYTEA NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    invited_by TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,
    accepted_by TEXT,
    accepted_at TIMESTAMPTZ
);

-- Existing links move into their creator's personal workspace. Links stored before sign-in existed
-- have no creator and stay outside every workspace, unreachable through the management API as before.
INSERT INTO workspaces (name, personal_of)
SELECT DISTINCT 'Personal', creator FROM urls WHERE creator IS NOT NULL;

INSERT INTO workspace_members (workspace_id, user_id, role)
SELECT id, personal_of, 'owner' FROM workspaces;

ALTER TABLE urls ADD COLUMN workspace_id BIGINT REFERENCES workspaces (id);

UPDATE urls SET workspace_id = w.id FROM workspaces w WHERE w.personal_of = urls.creator;

-- Serves GET /urls: one workspace's links, newest (highest id) first, resumed from a cursor id.
CREATE INDEX urls_workspace_id_idx ON urls (workspace_id, id DESC);
