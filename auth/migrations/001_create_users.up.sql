CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    email         TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT NOW()
);

-- Emails are stored trimmed and lowercased; the index keeps them unique case-insensitively
-- even if a row is ever written without that normalization, and serves lookups by email.
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));
