import { describe, expect, it } from "vitest";
import { singleConnectionDatabase } from "../local/testing";
import { writeClicks, type Click } from "./clicks";
import { stats } from "./stats";
import { newUser, shortenAs } from "./__tests__/helpers";

describe("the click batch statement", () => {
  it.skipIf(singleConnectionDatabase)(
    "counts overlapping batches written by two instances at once exactly (server only: PGlite has one connection)",
    async () => {
      const user = newUser();
      const codes = await Promise.all(
        Array.from({ length: 6 }, (_, i) => shortenAs(user, `https://example.com/overlap/${i}`).then((l) => l.code)),
      );
      const click = (code: string): Click => ({ code, referrerHost: "", device: "desktop" });
      const rounds = 20;
      for (let round = 0; round < rounds; round++) {
        // Two instances, each with a batch naming the same links in opposite orders.
        const forward = codes.map(click);
        const backward = [...codes].reverse().map(click);
        const [a, b] = await Promise.all([writeClicks(forward), writeClicks(backward)]);
        expect(a.every((t) => t !== null) && b.every((t) => t !== null)).toBe(true);
      }
      for (const code of codes) expect((await stats({ code })).clicks).toBe(2 * rounds);
    },
  );
});
