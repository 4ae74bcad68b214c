// GET /urls?sort= (most clicked first, by code, newest first) paged exactly with its own cursors, and
// GET /urls/:code answering one link in any state to its workspace only.
import { describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { url } from "~encore/clients";
import { expectAPIError } from "../local/testing";
import { db } from "./db";
import { PAGE_SIZE } from "./links";
import { encodeAfter } from "./list-order";
import { newUser, type User } from "./__tests__/helpers";

/** Every page of the user's links in `sort`, following nextCursor. */
async function allCodes(user: User, sort: string, q?: string): Promise<string[]> {
  const codes: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await url.listUrls({ sort, cursor, q }, { authData: user });
    codes.push(...page.urls.map((l) => l.code));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return codes;
}

describe("GET /urls?sort=", () => {
  it("pages by clicks (most first, then newest) and by code (A to Z) across pages, each link once", async () => {
    const user = newUser();
    const prefix = `o${Date.now().toString(36)}`;
    const made: { code: string; clicks: number }[] = [];
    for (let i = 0; i < PAGE_SIZE + 5; i++) {
      const alias = `${prefix}-${String((i * 7) % (PAGE_SIZE + 5)).padStart(2, "0")}`;
      const { code } = await url.shorten({ url: `https://example.com/order/${i}`, alias }, { authData: user });
      // Few distinct counts, so ties are broken by id across a page boundary.
      made.push({ code, clicks: i % 4 });
      await db.exec`UPDATE urls SET clicks = ${i % 4} WHERE code = ${code}`;
    }
    const newest = made.map((m) => m.code).reverse();
    expect(await allCodes(user, "created")).toEqual(newest);
    expect(await allCodes(user, "")).toEqual(newest);

    const byClicks = newest.map((code) => made.find((m) => m.code === code)!).sort((a, b) => b.clicks - a.clicks);
    expect(await allCodes(user, "clicks")).toEqual(byClicks.map((m) => m.code));
    expect(await allCodes(user, "code")).toEqual([...newest].sort());
    // A search keeps its order.
    expect(await allCodes(user, "code", `${prefix}-1`)).toEqual(newest.filter((c) => c.startsWith(`${prefix}-1`)).sort());
  });

  it("refuses an unknown order, and a cursor made for another order", async () => {
    const user = newUser();
    await expectAPIError(
      url.listUrls({ sort: "target" }, { authData: user }),
      ErrCode.InvalidArgument,
      "sort must be one of created, clicks, code",
    );
    const codeCursor = encodeAfter("code", { id: 5, clicks: 0, code: "abc123" });
    await expectAPIError(
      url.listUrls({ sort: "clicks", cursor: codeCursor }, { authData: user }),
      ErrCode.InvalidArgument,
      /^invalid cursor/,
    );
    await expectAPIError(
      url.listUrls({ sort: "code", cursor: "Y29kZTouLi8" }, { authData: user }),
      ErrCode.InvalidArgument,
      /^invalid cursor/,
    );
    expect(await url.listUrls({ sort: "code", cursor: codeCursor }, { authData: user })).toEqual({ urls: [] });
  });
});

describe("GET /urls/:code", () => {
  it("answers an expired link in full to its owner, and not_found to anyone else", async () => {
    const owner = newUser();
    const { code } = await url.shorten({ url: "https://example.com/one", tags: ["one"], maxClicks: 3 }, { authData: owner });
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 hour', clicks = 3 WHERE code = ${code}`;
    const link = await url.getUrl({ code }, { authData: owner });
    expect(link).toMatchObject({ code, originalUrl: "https://example.com/one", tags: ["one"], maxClicks: 3, clicks: 3 });
    expect(link.expiresAt!.getTime()).toBeLessThan(Date.now());
    await expectAPIError(url.getUrl({ code }, { authData: newUser() }), ErrCode.NotFound, "URL not found");
    await expectAPIError(url.getUrl({ code: "no-such-link" }, { authData: owner }), ErrCode.NotFound, "URL not found");
  });
});
