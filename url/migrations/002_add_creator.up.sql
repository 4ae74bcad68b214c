-- Who created each link: AuthData.userID (users live in the auth database, so no foreign key).
-- Nullable because links stored before sign-in existed have no creator.
ALTER TABLE urls ADD COLUMN creator TEXT;

-- Serves GET /urls: one creator's links, newest (highest id) first, resumed from a cursor id.
CREATE INDEX urls_creator_id_idx ON urls (creator, id DESC);
