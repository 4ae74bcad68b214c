-- A link's password, as a salted scrypt hash (url/link-password.ts; never the password), and its
-- click limit: the click statement (url/clicks.ts) counts nothing on a protected link except an
-- unlocked visit, and nothing past max_clicks. Both NULL for a link without them. Adding nullable
-- columns without a default rewrites nothing, so instances of the previous version keep running.
ALTER TABLE urls
    ADD COLUMN password_hash TEXT,
    ADD COLUMN max_clicks INTEGER CHECK (max_clicks BETWEEN 1 AND 1000000000);
