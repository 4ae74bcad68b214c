import { afterEach, describe, expect, it, vi } from "vitest";
import { appMeta } from "encore.dev";
import { ErrCode } from "encore.dev/api";
import log from "encore.dev/log";
import { qrCodes } from "./bucket";
import { codeSource, MAX_CODE_ATTEMPTS } from "./code";
import { db } from "./db";
import { recordClick } from "./resolve";
import { shorten } from "./shorten";
import { stats } from "./stats";
import { urlShortened } from "./topic";
import { codeClash, DIRECT_VISIT, linksOf, newUser, shortenAs } from "./__tests__/helpers";
import { captureLogs, expectAPIError, rejection } from "../local/testing";

afterEach(() => {
  vi.restoreAllMocks();
});

async function rowsWithCode(code: string): Promise<{ original_url: string; creator: string }[]> {
  return db.queryAll<{ original_url: string; creator: string }>`
    SELECT original_url, creator FROM urls WHERE code = ${code}
  `;
}

describe("POST /shorten", () => {
  it("stores the link and round-trips through resolve and stats", async () => {
    const user = newUser();
    const target = `https://example.com/round-trip/${user.userID}`;
    const link = await shortenAs(user, target);

    expect(link.code).toMatch(/^[0-9a-z]{6}$/);
    expect(link.shortUrl).toBe(`${appMeta().apiBaseUrl.replace(/\/$/, "")}/${link.code}`);
    expect(link.qrCodeUrl).toBe(qrCodes.publicUrl(`${link.code}.png`));
    expect(await rowsWithCode(link.code)).toEqual([{ original_url: target, creator: user.userID }]);

    expect(await stats({ code: link.code })).toEqual({ code: link.code, originalUrl: target, clicks: 0 });
    expect(await recordClick(link.code, DIRECT_VISIT)).toEqual({ target });
    expect(await recordClick(link.code, DIRECT_VISIT)).toEqual({ target });
    expect(await stats({ code: link.code })).toEqual({ code: link.code, originalUrl: target, clicks: 2 });
  });

  it("stores the normalized target", async () => {
    const user = newUser();
    const link = await shortenAs(user, "  HTTPS://Example.COM/a b  ");
    expect(await rowsWithCode(link.code)).toEqual([{ original_url: "https://example.com/a%20b", creator: user.userID }]);
  });

  it("publishes url-shortened with the stored link", async () => {
    const publish = vi.spyOn(urlShortened, "publish");
    const target = "https://example.com/published";
    const link = await shortenAs(newUser(), target);
    // Only this link's calls: the outbox relay may publish other tests' leftovers meanwhile.
    const calls = publish.mock.calls.filter(([e]) => e.code === link.code);
    expect(calls).toHaveLength(1);
    const [event] = calls[0];
    expect(event).toMatchObject({ code: link.code, originalUrl: target });
    expect(event.timestamp).toBeInstanceOf(Date);
    expect(Math.abs(event.timestamp.getTime() - Date.now())).toBeLessThan(60 * 60 * 1000);
  });

  it("keeps the link when publishing fails, and logs a warning naming the code", async () => {
    vi.spyOn(urlShortened, "publish").mockRejectedValueOnce(new Error("broker unreachable"));
    const logWarn = vi.spyOn(log, "warn").mockImplementation(() => {});
    const user = newUser();
    const link = await shortenAs(user, "https://example.com/unpublished");
    expect(await rowsWithCode(link.code)).toHaveLength(1);
    expect(logWarn).toHaveBeenCalledWith(expect.any(Error), expect.stringMatching(/url-shortened/), { code: link.code });
  });

  it("retries a forced code clash and never touches the link that owns the code", async () => {
    const owner = newUser();
    const taken = await shortenAs(owner, "https://example.com/owner");
    // Distinct bytes, so an overwrite would show even though a re-render would be identical.
    const image = Buffer.from("the owner's image");
    await qrCodes.upload(`${taken.code}.png`, image, { contentType: "image/png" });
    const next = vi.spyOn(codeSource, "next").mockReturnValueOnce(taken.code);
    captureLogs(codeClash({ code: taken.code, attempt: 1 }));

    const link = await shortenAs(newUser(), "https://example.com/newcomer");
    expect(link.code).not.toBe(taken.code);
    expect(next).toHaveBeenCalledTimes(2);
    expect(await rowsWithCode(taken.code)).toEqual([{ original_url: "https://example.com/owner", creator: owner.userID }]);
    expect(await qrCodes.download(`${taken.code}.png`)).toEqual(image);
  });

  it("retries when the row clashes after the image upload succeeded", async () => {
    const owner = newUser();
    const taken = await shortenAs(owner, "https://example.com/owner-without-image");
    await qrCodes.remove(`${taken.code}.png`);
    vi.spyOn(codeSource, "next").mockReturnValueOnce(taken.code);
    captureLogs(codeClash({ code: taken.code, attempt: 1 }));

    const link = await shortenAs(newUser(), "https://example.com/second");
    expect(link.code).not.toBe(taken.code);
    expect(await rowsWithCode(taken.code)).toEqual([{ original_url: "https://example.com/owner-without-image", creator: owner.userID }]);
    // The image written during the clash encodes the owner's own short URL, so it stays.
    expect(await qrCodes.exists(`${taken.code}.png`)).toBe(true);
  });

  it("fails cleanly with unavailable when every attempt clashes, creating nothing", async () => {
    const taken = await shortenAs(newUser(), "https://example.com/always-taken");
    const next = vi.spyOn(codeSource, "next").mockReturnValue(taken.code);
    captureLogs(codeClash({ code: taken.code }));
    const user = newUser();

    await expectAPIError(shortenAs(user, "https://example.com/never"), ErrCode.Unavailable, /free short code/);
    expect(next).toHaveBeenCalledTimes(MAX_CODE_ATTEMPTS);
    expect(await rowsWithCode(taken.code)).toHaveLength(1);
    expect(await linksOf(user)).toBe(0);
  });

  it("fails with unavailable and stores no row when the QR upload fails", async () => {
    vi.spyOn(qrCodes, "upload").mockRejectedValueOnce(new Error("object store unreachable"));
    const logError = vi.spyOn(log, "error").mockImplementation(() => {});
    const user = newUser();
    await expectAPIError(shortenAs(user, "https://example.com/no-image"), ErrCode.Unavailable, /QR code/);
    expect(await linksOf(user)).toBe(0);
    expect(logError).toHaveBeenCalledWith(expect.any(Error), expect.stringMatching(/QR code/), expect.anything());
  });

  it.each([
    ["empty", "", /empty/],
    ["not a URL", "http://exa mple.com/", /not a valid URL/],
    ["relative", "/just/a/path", /must be absolute/],
    ["javascript:", "javascript:alert(1)", /"javascript:"/],
    ["data:", "data:text/plain,hello", /"data:"/],
    ["ftp:", "ftp://example.com/file", /"ftp:"/],
    ["2049 bytes", "https://example.com/" + "x".repeat(2049 - 20), /longer than 2048 bytes/],
    ["user:password", "https://user:pw@example.com/", /username or password/],
  ])("refuses a %s target with invalid_argument and stores nothing", async (_, target, message) => {
    const user = newUser();
    await expectAPIError(shortenAs(user, target), ErrCode.InvalidArgument, message);
    expect(await linksOf(user)).toBe(0);
  });

  it("refuses a target pointing at the shortener itself and stores nothing", async () => {
    const user = newUser();
    const own = await shortenAs(newUser(), "https://example.com/own");
    await expectAPIError(shortenAs(user, own.shortUrl), ErrCode.InvalidArgument, /back at this URL shortener/);
    await expectAPIError(shortenAs(user, `${appMeta().apiBaseUrl}/shorten`), ErrCode.InvalidArgument, /shortener/);
    expect(await linksOf(user)).toBe(0);
  });

  it("refuses a direct call without auth data", async () => {
    const err = await rejection(shorten({ url: "https://example.com/" }));
    expect(err.code).toBe(ErrCode.Unauthenticated);
  });
});
