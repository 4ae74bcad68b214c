-- When a link was last followed, for GET /urls. Not indexed, so a click's UPDATE stays HOT.
ALTER TABLE urls ADD COLUMN last_clicked_at TIMESTAMPTZ;

-- Per-link click history for GET /urls/:code/clicks, written in the same statement as the click
-- count (url/clicks.ts). One row per link and UTC day; referrers and devices split that day further.
-- Links created before this migration have clicks but no history. Deleting a link deletes its history.
CREATE TABLE url_daily_clicks (
    url_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    clicks INTEGER NOT NULL,
    PRIMARY KEY (url_id, day)
);

-- host is the Referer's host only (never the full URL), '' for a visit without one.
CREATE TABLE url_referrer_clicks (
    url_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    host TEXT NOT NULL,
    clicks INTEGER NOT NULL,
    PRIMARY KEY (url_id, day, host)
);

CREATE TABLE url_device_clicks (
    url_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
    day DATE NOT NULL,
    device TEXT NOT NULL CHECK (device IN ('desktop', 'mobile', 'tablet', 'bot')),
    clicks INTEGER NOT NULL,
    PRIMARY KEY (url_id, day, device)
);
