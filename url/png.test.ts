import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { encodeBilevelPng, scanlineStride, whiteScanlines } from "./png";

describe("encodeBilevelPng", () => {
  it("writes a PNG whose every pixel a decoder reads back, checksums verified", () => {
    const side = 11; // not a multiple of 8: the last byte of each row is padded
    const stride = scanlineStride(side);
    const dark = (x: number, y: number) => (x * 3 + y * 5) % 7 < 3;
    const scanlines = whiteScanlines(side);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) if (dark(x, y)) scanlines[y * stride + 1 + (x >> 3)] &= ~(0x80 >> (x & 7));
    }

    const image = PNG.sync.read(encodeBilevelPng(side, scanlines));

    expect([image.width, image.height]).toEqual([side, side]);
    const read = Array.from({ length: side * side }, (_, i) => image.data[i * 4] === 0);
    expect(read).toEqual(Array.from({ length: side * side }, (_, i) => dark(i % side, Math.floor(i / side))));
  });

  it("is read by a decoder that checks checksums (so the test above would catch a wrong one)", () => {
    const png = encodeBilevelPng(8, whiteScanlines(8));
    png[png.length - 1] ^= 1; // the last byte of IEND's CRC
    expect(() => PNG.sync.read(png)).toThrow(/crc/i);
  });

  it("lays out a white image as PNG scanlines: a zero filter byte, then every bit set, padding included", () => {
    expect([scanlineStride(8), scanlineStride(9), scanlineStride(222)]).toEqual([2, 3, 29]);
    expect([...whiteScanlines(9)]).toEqual(Array.from({ length: 9 }, () => [0, 0xff, 0xff]).flat());
  });

  it("refuses scanlines of the wrong length instead of writing a broken image", () => {
    expect(() => encodeBilevelPng(11, new Uint8Array(11 * 2))).toThrow("a 11 px square needs 33 bytes of scanlines, got 22");
  });
});
