-- One history table for new clicks: a batch writes one row per link, referrer host and device here
-- instead of a row in each of the three tables of migration 003 (url/clicks.ts), which makes the
-- click statement cheaper. host is the Referer's host only (never the full URL), '' for none.
--
-- The three old tables stay, with everything counted before this version, and the history read
-- adds them in (url/click-history.ts): Encore applies a migration before the new code rolls out,
-- so instances of the previous version keep writing them until they are replaced. They never
-- recorded which host came with which device, so they cannot be folded into this table exactly.
CREATE TABLE url_clicks (
    url_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    host TEXT NOT NULL,
    device TEXT NOT NULL CHECK (device IN ('desktop', 'mobile', 'tablet', 'bot')),
    clicks INTEGER NOT NULL,
    PRIMARY KEY (url_id, day, host, device)
);
