-- Every link ever counted, written in the same transaction as the daily_stats increment, so a
-- redelivered url-shortened event finds its row here and counts nothing. The primary key is also
-- what makes two concurrent copies wait for each other instead of both counting.
-- A link is its code plus its creation time (the event's timestamp, the row's created_at): a code
-- freed by deletion and later given to a new link is a new link and is counted again.
CREATE TABLE counted_urls (
  code TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  day DATE NOT NULL,
  counted_at TIMESTAMPTZ NOT NULL DEFAULT NOW(),
  PRIMARY KEY (code, created_at)
);
