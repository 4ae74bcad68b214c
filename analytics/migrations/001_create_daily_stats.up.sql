-- One row per UTC day on which at least one link was counted; days without links have no row.
CREATE TABLE daily_stats (
  date DATE PRIMARY KEY,
  urls_created INTEGER NOT NULL CHECK (urls_created >= 0)
);
