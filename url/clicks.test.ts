import { describe, expect, it } from "vitest";
import { itOnServer } from "../local/testing";
import { writeClicks, type Click } from "./clicks";
import { db } from "./db";
import { stats } from "./stats";
import { url } from "~encore/clients";
import { newUser, shortenAs, visit } from "./__tests__/helpers";

/** A new user and `count` links of theirs. */
async function linksOfNewUser(count: number, path: string) {
  const user = newUser();
  const codes = await Promise.all(
    Array.from({ length: count }, (_, i) => shortenAs(user, `https://example.com/${path}/${i}`).then((l) => l.code)),
  );
  return { user, codes };
}

describe("the click batch statement", () => {
  it("keeps one plan per connection, also for batches of a single click (migration 019)", async () => {
    const fn = await db.queryRow<{ proconfig: string[] | null }>`SELECT proconfig FROM pg_proc WHERE proname = 'count_clicks'`;
    expect(fn?.proconfig).toEqual(["plan_cache_mode=force_generic_plan"]);
  });

  itOnServer("counts overlapping batches written by two instances at once exactly", async () => {
    const { codes } = await linksOfNewUser(6, "overlap");
    const click = (code: string): Click => ({ code, ...visit() });
    const rounds = 20;
    for (let round = 0; round < rounds; round++) {
      // Two instances, each with a batch naming the same links in opposite orders.
      const forward = codes.map(click);
      const backward = [...codes].reverse().map(click);
      const [a, b] = await Promise.all([writeClicks(forward), writeClicks(backward)]);
      expect(a.every((t) => t !== null) && b.every((t) => t !== null)).toBe(true);
    }
    for (const code of codes) expect((await stats({ code })).clicks).toBe(2 * rounds);
  });

  itOnServer("counts a visitor once when two instances write their clicks at the same time", async () => {
    const { user, codes } = await linksOfNewUser(4, "visitors");
    const people = ["198.51.100.1\nbrowser A", "198.51.100.2\nbrowser A", "198.51.100.1\nbrowser B"];
    const clicks = (order: string[]): Click[] => order.flatMap((code) => people.map((person) => ({ code, ...visit({ visitor: person }) })));
    for (let round = 0; round < 10; round++) {
      await Promise.all([writeClicks(clicks(codes)), writeClicks(clicks([...codes].reverse()))]);
    }
    for (const code of codes) {
      const report = await url.clickHistory({ code, days: 1 }, { authData: user });
      expect({ total: report.total, uniqueVisitors: report.uniqueVisitors }).toEqual({
        total: 2 * 10 * people.length,
        uniqueVisitors: people.length,
      });
    }
  });
});
