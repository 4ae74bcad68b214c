// The link.updated trigger compares a link's columns one by one (migration 017): a column added to urls
// must be added to it, or a change to only that column would queue no event.
import { describe, expect, it } from "vitest";
import { db } from "./db";

/** The columns a click sets: its own event (url/clicks.ts) reports it, so the trigger ignores them. */
const SET_BY_CLICKS = ["clicks", "last_clicked_at"];

describe("the link.updated trigger", () => {
  it("compares every column of urls but the ones a click sets", async () => {
    const columns = await db.queryAll<{ name: string }>`
      SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'urls'`;
    const row = await db.queryRow<{ definition: string }>`
      SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = 'urls'::regclass AND tgname = 'urls_queue_updated'`;
    const compared = (side: string) => [...row!.definition.matchAll(new RegExp(`\\b${side}\\.(\\w+)`, "gi"))].map((m) => m[1]).sort();
    const expected = columns
      .map((c) => c.name)
      .filter((name) => !SET_BY_CLICKS.includes(name))
      .sort();
    expect(compared("old")).toEqual(expected);
    expect(compared("new")).toEqual(expected);
  });
});
