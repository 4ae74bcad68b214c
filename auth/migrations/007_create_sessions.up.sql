-- A session is one sign-in on one device. The access tokens issued in it carry its id (`sid`) and the
-- auth handler accepts them only while it is live; its refresh tokens are rotated on every use, so a
-- session is also the family that ends together when a used refresh token comes back.
CREATE TABLE sessions (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- "Stay signed in": decides how long the session may stay idle (auth/sessions.ts).
    persistent   BOOLEAN NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    refreshed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Pushed forward by each refresh, never past created_at plus the absolute lifetime; ending a
    -- session also brings it to the moment it ended, so old rows can be found by it and removed.
    expires_at   TIMESTAMPTZ NOT NULL,
    ended_at     TIMESTAMPTZ,
    end_reason   TEXT
);

-- Password changes and bans end every live session of one user.
CREATE INDEX sessions_user_id_idx ON sessions (user_id) WHERE ended_at IS NULL;
-- Each new session removes a few long-expired ones without scanning the table.
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

-- Every refresh token a session was given, as a hex SHA-256 (the token itself is shown once, never
-- stored). used_at is set when the token is exchanged; a token that comes back after that is reuse.
CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    used_at    TIMESTAMPTZ
);

-- Deleting a session deletes its tokens through this index.
CREATE INDEX refresh_tokens_session_id_idx ON refresh_tokens (session_id);
