// A 1-bit grayscale PNG from scanlines already laid out as PNG stores them, compressed by node:zlib.
import zlib from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  data.copy(out, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Bytes per scanline of a `side` px wide 1-bit image: the filter-type byte, then a bit per pixel. */
export function scanlineStride(side: number): number {
  return 1 + Math.ceil(side / 8);
}

/** A white `side` × `side` image as encodeBilevelPng takes it: every bit 1, every filter-type byte 0 (none). */
export function whiteScanlines(side: number): Uint8Array {
  const stride = scanlineStride(side);
  const scanlines = new Uint8Array(stride * side).fill(0xff);
  for (let y = 0; y < side; y++) scanlines[y * stride] = 0;
  return scanlines;
}

/**
 * encodeBilevelPng writes a `side` × `side` 1-bit grayscale image (1 is white). `scanlines` holds each
 * row as PNG filters it: a filter-type byte (0, none) and then the row's bits, most significant first.
 * fast-png wrote the same image, but its pure-JavaScript deflate (fflate) took 110 µs of the event loop
 * for a QR image; zlib's takes 40. zlib.crc32 is why package.json asks for Node 20.15+ or 22.2+.
 */
export function encodeBilevelPng(side: number, scanlines: Uint8Array): Buffer {
  const expected = side * scanlineStride(side);
  if (scanlines.length !== expected)
    throw new RangeError(`a ${side} px square needs ${expected} bytes of scanlines, got ${scanlines.length}`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth; color type (9), compression (10), filter (11) and interlace (12) methods stay 0
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(scanlines)), chunk("IEND", Buffer.alloc(0))]);
}
