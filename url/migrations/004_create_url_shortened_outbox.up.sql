-- The url-shortened outbox: one row per event not yet known to be published. Written in the same
-- transaction as the link, so a committed link always has its event; removed once published. Rows
-- left by a crash or a failed publish are published again by the relay (url/outbox.ts).
CREATE TABLE url_shortened_outbox (
    id BIGSERIAL PRIMARY KEY,
    code TEXT NOT NULL,
    original_url TEXT NOT NULL,
    -- The link's created_at: with code, what the subscriber counts each link once by.
    created_at TIMESTAMPTZ NOT NULL,
    enqueued_at TIMESTAMPTZ NOT NULL DEFAULT NOW()
);
