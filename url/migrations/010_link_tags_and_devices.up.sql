-- A link's tags (lower-case, at most 10: url/tags.ts) and the targets for iPhone/iPad and Android
-- visitors (NULL: they go to original_url like everyone else). A constant default and nullable columns
-- rewrite nothing, so instances of the previous version keep running.
ALTER TABLE urls
    ADD COLUMN tags TEXT[] NOT NULL DEFAULT '{}',
    ADD COLUMN ios_url TEXT,
    ADD COLUMN android_url TEXT;

-- GET /urls?tag= and GET /tags read one owner's links by tag.
CREATE INDEX urls_tags_idx ON urls USING GIN (tags);
