// QR images of short links, stored in the public qr-codes bucket.
import QRCode from "qrcode";
import { qrCodes } from "./bucket";
import { encodeBilevelPng, scanlineStride, whiteScanlines } from "./png";

/** Pixels per module: whole pixels keep edges sharp at any integer zoom. */
const SCALE = 6;
/** Modules of white around the symbol: the spec's minimum quiet zone. */
const QUIET_ZONE = 4;

/**
 * renderQrPng draws `text` as a PNG QR code. Error correction "Q" (25% of the symbol may be damaged)
 * survives smudged or creased prints. 6 pixels per module make a text of up to 32 bytes (version 3,
 * 29 modules; a short URL of up to 27 with its scan marker) a 222 px square, about 6 cm on a screen and
 * 1.9 cm at 300 dpi.
 *
 * The image is black and white, so it is written as a 1-bit grayscale PNG (url/png.ts), about 0.4 KB:
 * qrcode's own PNG renderer writes 8-bit RGBA through pngjs, which cost 1.6 ms of CPU on the event
 * loop per link and 3.8 KB, where building the symbol (qrcode) and writing these bits cost 0.35 ms.
 */
export function renderQrPng(text: string): Buffer {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "Q" });
  const side = (modules.size + 2 * QUIET_ZONE) * SCALE;
  // Each scanline is a filter-type byte and the row's bits. 1 is white in 1-bit grayscale: start all
  // white, clear the pixels of each dark module in the first pixel row of its module row, then repeat
  // that scanline SCALE times.
  const stride = scanlineStride(side);
  const scanlines = whiteScanlines(side);
  for (let row = 0; row < modules.size; row++) {
    const first = (row + QUIET_ZONE) * SCALE * stride;
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      for (let x = (col + QUIET_ZONE) * SCALE, end = x + SCALE; x < end; x++) scanlines[first + 1 + (x >> 3)] &= ~(0x80 >> (x & 7));
    }
    for (let copy = 1; copy < SCALE; copy++) scanlines.copyWithin(first + copy * stride, first, first + stride);
  }
  return encodeBilevelPng(side, scanlines);
}

/**
 * The query parameter new QR images add to the short URL (`?qr=1`), so that the click history can tell
 * a scan from a click. The link works without it; images made before it existed count as clicks.
 */
const SCAN_MARKER = "qr";

/** qrTarget is the URL a link's QR image encodes: its short URL, marked as scanned. */
export function qrTarget(shortUrl: string): string {
  return `${shortUrl}?${SCAN_MARKER}=1`;
}

/** isQrScan tells, from a visit's query, whether it came through the link's QR image. */
export function isQrScan(query: URLSearchParams): boolean {
  return query.get(SCAN_MARKER) === "1";
}

/** qrObjectName is the bucket object holding `code`'s QR image. */
export function qrObjectName(code: string): string {
  return `${code}.png`;
}

/** qrCodeUrl is where anyone can fetch `code`'s QR image. */
export function qrCodeUrl(code: string): string {
  return qrCodes.publicUrl(qrObjectName(code));
}
