CREATE TABLE urls (
    id SERIAL PRIMARY KEY,
    code TEXT NOT NULL,
    original_url TEXT NOT NULL,
    clicks INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ DEFAULT NOW()
);

-- The one index on code. Being UNIQUE it is also what keeps codes unique (and what
-- INSERT ... ON CONFLICT (code) infers), so the column carries no second UNIQUE constraint.
CREATE UNIQUE INDEX urls_code_idx ON urls (code);
