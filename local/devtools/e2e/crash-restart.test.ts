// kill -9 during a burst, restart on the same data: nothing acknowledged is lost (both engines in CI).
// crash-restart.ts repeats the same run and prints the figures.
import { expect, it } from "vitest";
import { crashDuringBurst, lostNothing } from "./crash-burst";

it("keeps every acknowledged link and click, and analytics counts every link, after a kill -9 mid-burst", async () => {
  const figures = await crashDuringBurst(200);
  expect(figures.shortensAcknowledged).toBeGreaterThanOrEqual(100);
  expect(figures.missing).toEqual([]);
  expect(lostNothing(figures), JSON.stringify(figures)).toBe(true);
}, 600_000);
