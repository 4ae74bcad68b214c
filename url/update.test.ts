import { describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { url } from "~encore/clients";
import { describeLocal, expectAPIError, expectErrorResponse } from "../local/testing";
import { qrCodes } from "./bucket";
import { newUser, shortenAs, serveApiForThisFile } from "./__tests__/helpers";

describe("PATCH /urls/:code through the client", () => {
  it("refuses a request that changes nothing, an invalid target and a past expiry", async () => {
    const user = newUser();
    const { code } = await shortenAs(user, "https://example.com/unchanged");
    await expectAPIError(
      url.updateUrl({ code }, { authData: user }),
      ErrCode.InvalidArgument,
      "nothing to change: give any of url, expiresAt, password, maxClicks, tags, utm, iosUrl, androidUrl",
    );
    await expectAPIError(
      url.updateUrl({ code, url: "ftp://example.com/" }, { authData: user }),
      ErrCode.InvalidArgument,
      /scheme "ftp:" is not allowed/,
    );
    await expectAPIError(
      url.updateUrl({ code, expiresAt: new Date(Date.now() - 1000) }, { authData: user }),
      ErrCode.InvalidArgument,
      "expiresAt must be in the future",
    );
    const { urls } = await url.listUrls({}, { authData: user });
    expect(urls[0]).toMatchObject({ originalUrl: "https://example.com/unchanged", expiresAt: null });
  });
});

describeLocal("PATCH /urls/:code over HTTP", () => {
  const api = serveApiForThisFile(2);
  const { call } = api;

  it("lets the owner change the target and the expiry, keeping the code and its QR image", async () => {
    const created = (await (await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/old" })).json()) as {
      code: string;
      shortUrl: string;
      qrCodeUrl: string;
    };
    const image = await qrCodes.download(`${created.code}.png`);

    const moved = await call("PATCH", `/urls/${created.code}`, api.tokens[0], { url: "https://example.com/new" });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({
      code: created.code,
      shortUrl: created.shortUrl,
      qrCodeUrl: created.qrCodeUrl,
      originalUrl: "https://example.com/new",
      expiresAt: null,
    });
    expect(await (await call("GET", `/${created.code}`)).json()).toEqual({ url: "https://example.com/new" });

    const expiresAt = new Date(Date.now() + 3600_000);
    const expiring = (await (
      await call("PATCH", `/urls/${created.code}`, api.tokens[0], { expiresAt: expiresAt.toISOString() })
    ).json()) as {
      originalUrl: string;
      expiresAt: string;
    };
    expect(expiring.originalUrl).toBe("https://example.com/new");
    expect(new Date(expiring.expiresAt).getTime()).toBe(expiresAt.getTime());

    const lasting = await call("PATCH", `/urls/${created.code}`, api.tokens[0], { expiresAt: null });
    expect(await lasting.json()).toMatchObject({ originalUrl: "https://example.com/new", expiresAt: null, clicks: 1 });
    expect(await qrCodes.download(`${created.code}.png`)).toEqual(image);
  });

  it("revives an expired link when its owner moves the expiry", async () => {
    const { code } = (await (
      await call("POST", "/shorten", api.tokens[0], {
        url: "https://example.com/revived",
        expiresAt: new Date(Date.now() + 300).toISOString(),
      })
    ).json()) as { code: string };
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await call("GET", `/${code}`)).status).toBe(404);
    expect((await call("PATCH", `/urls/${code}`, api.tokens[0], { expiresAt: null })).status).toBe(200);
    expect(await (await call("GET", `/${code}`)).json()).toEqual({ url: "https://example.com/revived" });
  });

  it("treats another user's link as not found and changes nothing", async () => {
    const { code } = (await (await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/alices" })).json()) as {
      code: string;
    };
    const resp = await call("PATCH", `/urls/${code}`, api.tokens[1], { url: "https://evil.example/" });
    await expectErrorResponse(resp, 404, { code: "not_found", message: "URL not found" });
    expect(await (await call("GET", `/${code}/stats`)).json()).toMatchObject({ originalUrl: "https://example.com/alices" });
  });

  it("validates like POST /shorten", async () => {
    const { code } = (await (await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/valid" })).json()) as {
      code: string;
    };
    const cases: [unknown, string][] = [
      [{ url: "javascript:alert(1)" }, 'url scheme "javascript:" is not allowed: only http and https links can be shortened'],
      [{ url: `${api.baseUrl}/loop` }, "url points back at this URL shortener"],
      [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, "expiresAt must be in the future"],
      [{}, "nothing to change: give any of url, expiresAt, password, maxClicks, tags, utm, iosUrl, androidUrl"],
    ];
    for (const [body, message] of cases) {
      const resp = await call("PATCH", `/urls/${code}`, api.tokens[0], body);
      await expectErrorResponse(resp, 400, { code: "invalid_argument", message });
    }
    expect((await call("PATCH", `/urls/${code}`, undefined, { url: "https://example.com/x" })).status).toBe(401);
  });
});
