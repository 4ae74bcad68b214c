// GET /analytics/links-created's answer. It imports nothing, so that the web pages read it from here
// (as they read url/click-report-types.ts) rather than keep a copy that could drift.

/** DayCreated is one UTC day ("YYYY-MM-DD") and the links made in it. */
export interface DayCreated {
  date: string;
  created: number;
}

/** LinksCreated is every day of the range, oldest first (0 for days without new links), and their sum. */
export interface LinksCreated {
  /** The first UTC day of the range, "YYYY-MM-DD". */
  from: string;
  /** The last day of the range, included. */
  to: string;
  days: DayCreated[];
  total: number;
}
