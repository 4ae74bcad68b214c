-- Abuse handling (url/abuse/): links an admin disabled or flagged, hosts no link may point at, and
-- visitors' reports. No report stores who sent it.

-- Set when a site admin disables the link (or blocks its host, or bans its creator): it then leads
-- nowhere and counts nothing, and its owner cannot undo it.
ALTER TABLE urls ADD COLUMN disabled_at TIMESTAMPTZ;
ALTER TABLE urls ADD COLUMN disabled_reason TEXT;
-- A flagged link shows browsers a warning page first; only a visit that continues counts.
ALTER TABLE urls ADD COLUMN flagged BOOLEAN NOT NULL DEFAULT false;

-- Target hosts refused on shorten and on a change of target, with their subdomains. 'file' rows mirror
-- BLOCKLIST_FILE at each start; 'admin' rows come from POST /admin/blocklist.
CREATE TABLE blocked_hosts (
    host TEXT PRIMARY KEY,
    source TEXT NOT NULL CHECK (source IN ('file', 'admin')),
    added_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE link_reports (
    id BIGSERIAL PRIMARY KEY,
    -- The code as reported; the link may since have been deleted.
    code TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('phishing', 'malware', 'spam', 'illegal', 'other')),
    details TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- GET /admin/reports?status=open, newest first.
CREATE INDEX link_reports_status_idx ON link_reports (status, id DESC);

-- A target URL's host as the blocklist matches it: targets are stored as the WHATWG parser serializes
-- them (lower-case host, no credentials), so the host is what follows the scheme up to a port or path.
CREATE FUNCTION target_host(target TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT substring(target FROM '^[a-z][a-z0-9+.-]*://(\[[^]]*\]|[^/?#:]*)')
$$;

-- Whether `host` is `blocked` or one of its subdomains.
CREATE FUNCTION host_within(host TEXT, blocked TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
    SELECT host = blocked OR right(host, length(blocked) + 1) = '.' || blocked
$$;
