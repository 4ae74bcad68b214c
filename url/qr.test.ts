import { describe, expect, it } from "vitest";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { url } from "~encore/clients";
import { describeLocal, useTestServer } from "../local/testing";
import { renderQrPng } from "./qr";
import { newUser, shortenAs } from "./__tests__/helpers";

/** decodeQr reads the text of the one QR code in a PNG, or null. */
function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

describe("renderQrPng", () => {
  it("draws a QR code that decodes to exactly the text", async () => {
    const text = "https://sho.rt/abc123";
    expect(decodeQr(await renderQrPng(text))).toBe(text);
  });
});

describeLocal("QR codes over HTTP", () => {
  const server = useTestServer();

  it("serves a PNG at qrCodeUrl that decodes to exactly the short URL", async () => {
    const link = await shortenAs(newUser(), "https://example.com/printed-poster");
    const resp = await fetch(link.qrCodeUrl);
    expect(resp.status).toBe(200);
    expect(resp.headers.get("content-type")).toBe("image/png");
    expect(decodeQr(Buffer.from(await resp.arrayBuffer()))).toBe(link.shortUrl);
    expect(link.shortUrl).toBe(`${server.baseUrl}/${link.code}`);
  });

  it("stops serving the image once the link is deleted", async () => {
    const user = newUser();
    const link = await shortenAs(user, "https://example.com/short-lived");
    expect((await fetch(link.qrCodeUrl)).status).toBe(200);
    await url.deleteUrl({ code: link.code }, { authData: user });
    expect((await fetch(link.qrCodeUrl)).status).toBe(404);
  });
});
