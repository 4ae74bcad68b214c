-- Serves GET /analytics/links-created (url/links-created.ts): one workspace's link.created entries
-- within a range of days, without reading its other entries.
CREATE INDEX audit_log_links_created_idx ON audit_log (workspace_id, at) WHERE action = 'link.created';
