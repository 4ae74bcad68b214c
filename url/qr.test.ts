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
    expect(decodeQr(renderQrPng(text))).toBe(text);
  });

  it("draws a small black-and-white PNG: 1-bit grayscale, 6 px per module, a 4-module quiet zone", () => {
    const png = renderQrPng("http://127.0.0.1:4000/b00001");
    // IHDR: width, height, bit depth 1, color type 0 (grayscale).
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).toEqual([222, 222, 1, 0]);
    expect(png.length).toBeLessThan(1024);
    const image = PNG.sync.read(png);
    const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4] === 0;
    // The quiet zone is white; the top-left finder pattern's corner module starts right after it.
    expect(dark(23, 23)).toBe(false);
    expect([dark(24, 24), dark(29, 29), dark(24 + 6 * 6, 24)]).toEqual([true, true, true]);
  });

  it("decodes for every kind of short link: many codes, long aliases, long base URLs", () => {
    const texts = [
      ...Array.from({ length: 300 }, (_, i) => `http://127.0.0.1:4000/${(i * 7919).toString(36).padStart(6, "0")}`),
      `https://links.a-rather-long-company-domain.example.com/${"Alias_".repeat(10)}1234`,
    ];
    expect(texts.filter((t) => decodeQr(renderQrPng(t)) !== t)).toEqual([]);
  });
});

describeLocal("QR codes over HTTP", () => {
  const server = useTestServer();

  it("serves a PNG at qrCodeUrl that decodes to the short URL marked as a scan", async () => {
    const link = await shortenAs(newUser(), "https://example.com/printed-poster");
    const resp = await fetch(link.qrCodeUrl);
    expect(resp.status).toBe(200);
    expect(resp.headers.get("content-type")).toBe("image/png");
    expect(decodeQr(Buffer.from(await resp.arrayBuffer()))).toBe(`${link.shortUrl}?qr=1`);
    expect(link.shortUrl).toBe(`${server.baseUrl}/${link.code}`);
  });

  it("counts a visit through the decoded image as a QR scan, and the plain short URL (older images) as a link", async () => {
    const user = newUser();
    const link = await shortenAs(user, "https://example.com/menu");
    const scanned = decodeQr(Buffer.from(await (await fetch(link.qrCodeUrl)).arrayBuffer()))!;
    const visit = async (address: string) => {
      const resp = await fetch(address, { redirect: "manual", headers: { Accept: "text/html" } });
      expect([resp.status, resp.headers.get("location")]).toEqual([302, "https://example.com/menu"]);
    };
    await visit(scanned);
    await visit(scanned);
    await visit(link.shortUrl);
    const { sources, total } = await url.clickHistory({ code: link.code, days: 1 }, { authData: user });
    expect({ sources, total }).toEqual({
      sources: [
        { name: "link", clicks: 1 },
        { name: "qr", clicks: 2 },
      ],
      total: 3,
    });
  });

  it("stops serving the image once the link is deleted", async () => {
    const user = newUser();
    const link = await shortenAs(user, "https://example.com/short-lived");
    expect((await fetch(link.qrCodeUrl)).status).toBe(200);
    await url.deleteUrl({ code: link.code }, { authData: user });
    expect((await fetch(link.qrCodeUrl)).status).toBe(404);
  });
});
