-- Click history with every dimension the API reports: a batch writes one row per link, UTC day and
-- combination of referrer host, device, country, browser, system, source and campaign (url/clicks.ts),
-- adding its clicks and the visitors first seen that day. One wide row per kind of visit, not a row per
-- dimension: the click statement stays one upsert per group, as migration 006 found cheapest.
--
-- A new table rather than new columns in url_clicks: Encore applies a migration before the new code rolls
-- out, and instances of the previous version keep writing url_clicks with its four-column conflict key
-- until they are replaced. The view below adds url_clicks and the tables of migration 003 in.
--
-- Two choices keep the click statement cheap (bench/README.md): the key's text columns compare bytewise
-- (COLLATE "C": the reports sort in the app), and there is no foreign key to urls, whose check cost
-- about as much again as a new row's insert. The click statement writes rows only for links whose rows
-- it holds locked, so none can name a missing link; deleting a link deletes its rows by the trigger below.
CREATE TABLE url_click_facts (
    url_id INTEGER NOT NULL,
    day DATE NOT NULL,
    -- The Referer's host only (never the full URL), '' for none.
    host TEXT COLLATE "C" NOT NULL,
    device TEXT COLLATE "C" NOT NULL CHECK (device IN ('desktop', 'mobile', 'tablet', 'bot')),
    -- ISO 3166-1 alpha-2; 'ZZ' when unknown.
    country TEXT COLLATE "C" NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    -- Families from bowser's own lists ('Chrome', 'iOS'), never the User-Agent; '' when unknown.
    browser TEXT COLLATE "C" NOT NULL CHECK (length(browser) <= 64),
    os TEXT COLLATE "C" NOT NULL CHECK (length(os) <= 64),
    source TEXT COLLATE "C" NOT NULL CHECK (source IN ('link', 'qr')),
    -- 'utm_source / utm_medium / utm_campaign' of the visit's query, '' without any of them.
    campaign TEXT COLLATE "C" NOT NULL CHECK (length(campaign) <= 240),
    clicks INTEGER NOT NULL,
    -- How many of these clicks were the first of their visitor on this link that day (url_visitors).
    visitors INTEGER NOT NULL,
    PRIMARY KEY (url_id, day, host, device, country, browser, os, source, campaign)
);

-- What ON DELETE CASCADE would do, without the check on every insert: a link's history goes with it.
CREATE FUNCTION delete_url_click_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM url_click_facts f USING deleted WHERE f.url_id = deleted.id;
    RETURN NULL;
END;
$$;

CREATE TRIGGER urls_delete_click_facts AFTER DELETE ON urls
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION delete_url_click_facts();

-- Who visited a link on a day, as a keyed hash (url/visitors.ts): no address, no User-Agent. Only for
-- telling a new visitor from one seen that day; the counts are in url_click_facts, and the cleanup job
-- deletes hashes after VISITOR_HASH_RETENTION_DAYS. Day first, so that deletion reads a range of the
-- key. No foreign key: checking one per new visitor would cost the click statement, and the hashes of a
-- deleted link go with the retention window.
CREATE TABLE url_visitors (
    day DATE NOT NULL,
    url_id INTEGER NOT NULL,
    visitor BYTEA NOT NULL,
    PRIMARY KEY (day, url_id, visitor)
);

-- The key of each day's visitor hashes: random, shared by every instance, and deleted once its day is
-- over, after which nobody can recompute a hash from an address.
CREATE TABLE visitor_keys (
    day DATE PRIMARY KEY,
    key BYTEA NOT NULL
);

-- Every click once per dimension, from every table that has ever held clicks, for the reports and the
-- CSV export: (dimension, value) with the clicks and the visitors new that day. Rows written before this
-- migration have no country, browser, system, source or campaign: they count as unknown ('ZZ', '', '')
-- and as 'link', and as no new visitors. Values compare bytewise in every branch, as the facts' do.
CREATE VIEW url_click_dimensions AS
    SELECT f.url_id, f.day, d.dimension, d.value, f.clicks, f.visitors
    FROM url_click_facts f
    CROSS JOIN LATERAL (VALUES ('referrer', f.host), ('device', f.device), ('country', f.country), ('browser', f.browser),
                               ('os', f.os), ('source', f.source), ('campaign', f.campaign)) AS d (dimension, value)
    UNION ALL
    SELECT c.url_id, c.day, d.dimension, d.value COLLATE "C", c.clicks, 0
    FROM url_clicks c
    CROSS JOIN LATERAL (VALUES ('referrer', c.host), ('device', c.device), ('country', 'ZZ'), ('browser', ''),
                               ('os', ''), ('source', 'link'), ('campaign', '')) AS d (dimension, value)
    UNION ALL
    -- Migration 003's tables split each click three ways: the day's row carries what neither of the others does.
    SELECT c.url_id, c.day, d.dimension, d.value COLLATE "C", c.clicks, 0
    FROM url_daily_clicks c
    CROSS JOIN LATERAL (VALUES ('country', 'ZZ'), ('browser', ''), ('os', ''), ('source', 'link'), ('campaign', '')) AS d (dimension, value)
    UNION ALL
    SELECT url_id, day, 'referrer', host COLLATE "C", clicks, 0 FROM url_referrer_clicks
    UNION ALL
    SELECT url_id, day, 'device', device COLLATE "C", clicks, 0 FROM url_device_clicks;
