import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrCode } from "encore.dev/api";
import { expectAPIError } from "../local/testing";
import { db } from "./db";
import { recordClick } from "./resolve";
import { stats } from "./stats";
import { DIRECT_VISIT, newUser, shortenAs } from "./__tests__/helpers";

describe("GET /:code/stats", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("answers concurrent reads of different links, known or not, with one statement", async () => {
    const [a, b] = await Promise.all([shortenAs(newUser(), "https://example.com/a"), shortenAs(newUser(), "https://example.com/b")]);
    await recordClick(a.code, DIRECT_VISIT);
    const statements = vi.spyOn(db, "queryAll");
    const asked = [a.code, b.code, "zzzzzz", a.code];
    const answers = await Promise.allSettled(asked.map((code) => stats({ code })));
    expect(statements).toHaveBeenCalledTimes(1);
    expect(answers.map((r) => (r.status === "fulfilled" ? r.value : "rejected"))).toEqual([
      { code: a.code, originalUrl: "https://example.com/a", clicks: 1 },
      { code: b.code, originalUrl: "https://example.com/b", clicks: 0 },
      "rejected",
      { code: a.code, originalUrl: "https://example.com/a", clicks: 1 },
    ]);
    await expectAPIError(stats({ code: "zzzzzz" }), ErrCode.NotFound, "URL not found");
  });

  it("never misses a click that was answered before the read was asked", async () => {
    const { code } = await shortenAs(newUser(), "https://example.com/counted");
    let answered = 0;
    const reads: Promise<{ floor: number; clicks: number }>[] = [];
    await Promise.all(
      Array.from({ length: 150 }, async () => {
        await recordClick(code, DIRECT_VISIT);
        const floor = ++answered;
        reads.push(stats({ code }).then(({ clicks }) => ({ floor, clicks })));
      }),
    );
    for (const { floor, clicks } of await Promise.all(reads)) expect(clicks).toBeGreaterThanOrEqual(floor);
    expect((await stats({ code })).clicks).toBe(150);
  });

  it("fails every read of a failed batch with the database's error, and the next batch recovers", async () => {
    const { code } = await shortenAs(newUser(), "https://example.com/flaky");
    vi.spyOn(db, "queryAll").mockRejectedValueOnce(new Error("connection lost"));
    const failed = await Promise.allSettled([stats({ code }), stats({ code })]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect((await stats({ code })).clicks).toBe(0);
  });
});
