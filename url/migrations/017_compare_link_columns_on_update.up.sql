-- Any change to a link but a click's queues link.updated (014), now tested on the columns themselves:
-- comparing whole rows as jsonb cost each click's UPDATE of its link about 25 µs of the database's time,
-- a quarter of what PostgreSQL spends on a resolve; a row of columns costs about one. The row lists every
-- column of urls but the two a click sets (clicks, last_clicked_at): url/link-updated-trigger.test.ts
-- fails when urls gains a column this trigger does not compare.
DROP TRIGGER urls_queue_updated ON urls;

CREATE TRIGGER urls_queue_updated AFTER UPDATE ON urls FOR EACH ROW
    WHEN ((
          OLD.id, OLD.code, OLD.original_url, OLD.created_at, OLD.creator, OLD.expires_at, OLD.password_hash,
          OLD.max_clicks, OLD.tags, OLD.ios_url, OLD.android_url, OLD.workspace_id, OLD.disabled_at,
          OLD.disabled_reason, OLD.flagged
         ) IS DISTINCT FROM (
          NEW.id, NEW.code, NEW.original_url, NEW.created_at, NEW.creator, NEW.expires_at, NEW.password_hash,
          NEW.max_clicks, NEW.tags, NEW.ios_url, NEW.android_url, NEW.workspace_id, NEW.disabled_at,
          NEW.disabled_reason, NEW.flagged
         ))
    EXECUTE FUNCTION queue_link_updated();
