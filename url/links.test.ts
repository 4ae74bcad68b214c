import { beforeAll, describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { url } from "~encore/clients";
import { describeLocal, expectAPIError, expectErrorResponse, useTestServer } from "../local/testing";
import { qrCodes } from "./bucket";
import { encodeCursor } from "./cursor";
import { PAGE_SIZE } from "./links";
import { stats } from "./stats";
import { newUser, shortenAs, signUp, type User } from "./__tests__/helpers";

async function allPages(user: User): Promise<{ codes: string[]; pageSizes: number[] }> {
  const codes: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await url.listUrls({ cursor }, { authData: user });
    codes.push(...page.urls.map((link) => link.code));
    pageSizes.push(page.urls.length);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { codes, pageSizes };
}

describe("GET /urls", () => {
  it("pages through the caller's links, newest first, 20 a page", async () => {
    const user = newUser();
    const created: string[] = [];
    for (let i = 0; i < 2 * PAGE_SIZE + 5; i++) created.push((await shortenAs(user, `https://example.com/page/${i}`)).code);
    await shortenAs(newUser(), "https://example.com/someone-else");

    const { codes, pageSizes } = await allPages(user);
    expect(pageSizes).toEqual([20, 20, 5]);
    expect(codes).toEqual(created.reverse());
  });

  it("describes each link fully", async () => {
    const user = newUser();
    const link = await shortenAs(user, "https://example.com/described");
    const { urls, nextCursor } = await url.listUrls({}, { authData: user });
    expect(nextCursor).toBeUndefined();
    expect(urls).toEqual([
      {
        code: link.code,
        workspaceId: expect.stringMatching(/^[1-9][0-9]*$/),
        creator: { type: "user", id: user.userID, label: null },
        shortUrl: link.shortUrl,
        qrCodeUrl: link.qrCodeUrl,
        originalUrl: "https://example.com/described",
        clicks: 0,
        createdAt: expect.any(Date),
        expiresAt: null,
        lastClickedAt: null,
        hasPassword: false,
        maxClicks: null,
        tags: [],
        iosUrl: null,
        androidUrl: null,
        disabled: false,
        disabledReason: null,
        flagged: false,
      },
    ]);
  });

  it("is empty for a caller with no links, and refuses a forged cursor", async () => {
    const user = newUser();
    expect(await url.listUrls({}, { authData: user })).toEqual({ urls: [] });
    await expectAPIError(url.listUrls({ cursor: "bm9wZQ" }, { authData: user }), ErrCode.InvalidArgument, "invalid cursor");
    expect(await url.listUrls({ cursor: encodeCursor(1) }, { authData: user })).toEqual({ urls: [] });
  });
});

describe("DELETE /urls/:code", () => {
  it("removes the caller's link and its QR image", async () => {
    const user = newUser();
    const { code } = await shortenAs(user, "https://example.com/doomed");
    expect(await qrCodes.exists(`${code}.png`)).toBe(true);
    await url.deleteUrl({ code }, { authData: user });
    await expectAPIError(stats({ code }), ErrCode.NotFound, "URL not found");
    expect(await qrCodes.exists(`${code}.png`)).toBe(false);
    await expectAPIError(url.deleteUrl({ code }, { authData: user }), ErrCode.NotFound, "URL not found");
  });

  it("treats another user's link as not found and leaves it alone", async () => {
    const owner = newUser();
    const { code } = await shortenAs(owner, "https://example.com/mine");
    await expectAPIError(url.deleteUrl({ code }, { authData: newUser() }), ErrCode.NotFound, "URL not found");
    expect((await stats({ code })).originalUrl).toBe("https://example.com/mine");
    expect(await qrCodes.exists(`${code}.png`)).toBe(true);
  });
});

describeLocal("the url service's auth over HTTP", () => {
  const app = useTestServer();
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    app.call(method, path, { token, body, headers: { Accept: "application/json" } });
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    [alice, bob] = await Promise.all([signUp(app.baseUrl), signUp(app.baseUrl)]);
  });

  it.each([
    ["POST", "/shorten", { url: "https://example.com/" }],
    ["GET", "/urls", undefined],
    ["DELETE", "/urls/abc123", undefined],
  ])("%s %s without a valid token is 401 unauthenticated", async (method, path, body) => {
    for (const token of [undefined, "not-a-jwt", `${alice}x`]) {
      const reply = await call(method, path, token, body);
      expect(reply.status).toBe(401);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(reply.body).toMatchObject({ code: "unauthenticated" });
    }
  });

  it("keeps each user's links to themselves", async () => {
    const created = await call("POST", "/shorten", alice, { url: "https://example.com/alice" });
    expect(created.status).toBe(200);
    const { code } = created.body as { code: string };

    const aliceList = await call("GET", "/urls", alice);
    expect(aliceList.status).toBe(200);
    expect((aliceList.body as { urls: { code: string }[] }).urls.map((u) => u.code)).toEqual([code]);

    expect((await call("GET", "/urls", bob)).body).toEqual({ urls: [] });

    await expectErrorResponse(await call("DELETE", `/urls/${code}`, bob), 404, { code: "not_found", message: "URL not found" });
    expect((await call("GET", `/${code}/stats`)).status).toBe(200);

    const aliceDelete = await call("DELETE", `/urls/${code}`, alice);
    expect(aliceDelete.status).toBe(200);
    expect((await call("GET", `/${code}/stats`)).status).toBe(404);
  });

  it("pages over HTTP with the cursor as a query parameter", async () => {
    const carol = await signUp(app.baseUrl);
    for (let i = 0; i < PAGE_SIZE + 1; i++) {
      expect((await call("POST", "/shorten", carol, { url: `https://example.com/carol/${i}` })).status).toBe(200);
    }
    const first = (await call("GET", "/urls", carol)).body as { urls: { originalUrl: string }[]; nextCursor: string };
    expect(first.urls).toHaveLength(PAGE_SIZE);
    expect(first.urls[0].originalUrl).toBe(`https://example.com/carol/${PAGE_SIZE}`);
    const second = await call("GET", `/urls?cursor=${encodeURIComponent(first.nextCursor)}`, carol);
    expect(second.status).toBe(200);
    const body = second.body as { urls: { originalUrl: string }[]; nextCursor?: string };
    expect(body.urls.map((u) => u.originalUrl)).toEqual(["https://example.com/carol/0"]);
    expect(body.nextCursor).toBeUndefined();

    await expectErrorResponse(await call("GET", "/urls?cursor=bm9wZQ", carol), 400, {
      code: "invalid_argument",
      message: "invalid cursor",
    });
  });
});
