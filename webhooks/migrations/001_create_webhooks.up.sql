-- A customer's endpoint for link events. The secret signs every delivery (Standard Webhooks): it must be
-- kept to sign, so it is stored, and shown to its owner once, when the webhook is created.
CREATE TABLE webhooks (
    id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
    -- Who owns it, as link events name their owner (the links' owner).
    owner TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT[] NOT NULL,
    secret TEXT NOT NULL,
    enabled BOOLEAN NOT NULL DEFAULT true,
    -- Why it was disabled by the app (after failing for days); null when enabled or disabled by its owner.
    disabled_reason TEXT,
    -- The first failed attempt since the last delivered one; null while deliveries succeed.
    failing_since TIMESTAMPTZ,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Fan-out finds an owner's webhooks on every event; the owner's list reads them in order.
CREATE INDEX webhooks_owner_idx ON webhooks (owner, created_at);

-- Every attempt to deliver an event to a webhook (and every test send), newest last.
CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    webhook_id UUID NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    -- The webhook-id header: the same for every attempt at one event.
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    attempted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- The receiver's status, or null when there was none (error says why).
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    -- delivered: a 2xx; retrying: failed, another attempt follows; failed: the last attempt failed.
    outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed'))
);

-- The deliveries list pages a webhook's attempts newest first; a delivery counts an event's earlier attempts.
CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id DESC);
CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (webhook_id, event_id);
