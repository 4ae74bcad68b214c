import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { encodeBilevelPng } from "./png";

describe("encodeBilevelPng", () => {
  it("writes a PNG whose every pixel a decoder reads back, checksums verified", () => {
    const side = 11; // not a multiple of 8: the last byte of each row is padded
    const stride = 1 + Math.ceil(side / 8);
    const dark = (x: number, y: number) => (x * 3 + y * 5) % 7 < 3;
    const scanlines = new Uint8Array(stride * side).fill(0xff);
    for (let y = 0; y < side; y++) {
      scanlines[y * stride] = 0;
      for (let x = 0; x < side; x++) if (dark(x, y)) scanlines[y * stride + 1 + (x >> 3)] &= ~(0x80 >> (x & 7));
    }

    const image = PNG.sync.read(encodeBilevelPng(side, scanlines));

    expect([image.width, image.height]).toEqual([side, side]);
    const read = Array.from({ length: side * side }, (_, i) => image.data[i * 4] === 0);
    expect(read).toEqual(Array.from({ length: side * side }, (_, i) => dark(i % side, Math.floor(i / side))));
  });

  it("is read by a decoder that checks checksums (so the test above would catch a wrong one)", () => {
    const png = encodeBilevelPng(
      8,
      new Uint8Array(8 * 2).fill(0xff).map((v, i) => (i % 2 === 0 ? 0 : v)),
    );
    png[png.length - 1] ^= 1; // the last byte of IEND's CRC
    expect(() => PNG.sync.read(png)).toThrow(/crc/i);
  });

  it("refuses scanlines of the wrong length instead of writing a broken image", () => {
    expect(() => encodeBilevelPng(11, new Uint8Array(11 * 2))).toThrow("a 11 px square needs 33 bytes of scanlines, got 22");
  });
});
