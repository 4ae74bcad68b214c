-- Set when a site admin bans the account: it cannot sign in, and its tokens stop working at once
-- (the auth handler reads the account on every request).
ALTER TABLE users ADD COLUMN banned_at TIMESTAMPTZ;
