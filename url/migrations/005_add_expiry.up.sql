-- When a link stops resolving (NULL: never). Checked against now() on every resolve, so a link
-- expires at that instant; the cleanup job deletes links expired more than 30 days ago.
ALTER TABLE urls ADD COLUMN expires_at TIMESTAMPTZ;
