-- The link-events outbox (url/link-events.ts): one row per link change, and one per click batch, written
-- in the transaction that makes the change, so a committed change or click always has its event; the
-- relay publishes rows to the link-events topic and removes them. Link changes are queued by the
-- triggers below, so every statement that creates, changes or deletes a link (the API, the cleanup job,
-- an admin, a migration) queues its event without being able to forget; clicks are queued by the click
-- statement itself (url/clicks.ts), at most one row per batch.
CREATE TABLE link_event_outbox (
    id BIGSERIAL PRIMARY KEY,
    -- The event's identity for receivers: stable across republishing (the webhook-id derives from it).
    event_id UUID NOT NULL DEFAULT gen_random_uuid(),
    kind TEXT NOT NULL CHECK (kind IN ('link.created', 'link.updated', 'link.deleted', 'link.clicked')),
    occurred_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- A link change: the link after it (before it, for a deletion). A click batch: an array of
    -- groups, each a link, what its clicks recorded and how many there were.
    data JSONB NOT NULL
);

-- The workspaces whose link events are queued: those that have (or had) a webhook. The webhooks
-- service adds a workspace before its first webhook exists (url/link-event-subscribers.ts) and never
-- removes one, so no event is missed by a race; a workspace without webhooks then costs only the
-- fan-out's look-up. Links of any other workspace queue nothing, so a bulk import or a click batch
-- of theirs writes no events.
CREATE TABLE link_event_subscribers (
    workspace_id BIGINT PRIMARY KEY,
    since TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- What an event says about a link: its public fields and its owner, the workspace (for matching
-- webhooks, never sent).
CREATE FUNCTION link_event_data(link urls) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('code', link.code, 'url', link.original_url, 'owner', link.workspace_id::text,
                              'createdAt', link.created_at, 'expiresAt', link.expires_at)
$$;

CREATE FUNCTION queue_link_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_event_outbox (kind, data) SELECT 'link.created', link_event_data(inserted) FROM inserted
    WHERE inserted.workspace_id IN (SELECT workspace_id FROM link_event_subscribers);
    RETURN NULL;
END;
$$;

CREATE FUNCTION queue_link_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_event_outbox (kind, data) SELECT 'link.deleted', link_event_data(deleted) FROM deleted
    WHERE deleted.workspace_id IN (SELECT workspace_id FROM link_event_subscribers);
    RETURN NULL;
END;
$$;

CREATE FUNCTION queue_link_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO link_event_outbox (kind, data) SELECT 'link.updated', link_event_data(NEW)
    WHERE NEW.workspace_id IN (SELECT workspace_id FROM link_event_subscribers);
    RETURN NULL;
END;
$$;

CREATE TRIGGER urls_queue_created AFTER INSERT ON urls
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION queue_link_created();

CREATE TRIGGER urls_queue_deleted AFTER DELETE ON urls
    REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION queue_link_deleted();

-- Any change but a click's (the click statement sets only clicks and last_clicked_at, and queues its
-- own event): columns added later are covered without touching this trigger.
CREATE TRIGGER urls_queue_updated AFTER UPDATE ON urls FOR EACH ROW
    WHEN ((to_jsonb(OLD) - 'clicks' - 'last_clicked_at') IS DISTINCT FROM (to_jsonb(NEW) - 'clicks' - 'last_clicked_at'))
    EXECUTE FUNCTION queue_link_updated();
