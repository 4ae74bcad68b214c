// QR images of short links, stored in the public qr-codes bucket.
import QRCode from "qrcode";
import { qrCodes } from "./bucket";

/**
 * renderQrPng draws `text` as a PNG QR code. Error correction "Q" (25% of the symbol may be damaged)
 * survives smudged or creased prints; the 4-module quiet zone is the spec minimum; 12 whole pixels per
 * module keep edges sharp when scaled, and a short URL of up to 32 bytes (version 3, 29 modules) makes
 * a 444 px square: crisp on screens and about 3.8 cm at 300 dpi.
 */
export function renderQrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: "png", errorCorrectionLevel: "Q", margin: 4, scale: 12 });
}

/** qrObjectName is the bucket object holding `code`'s QR image. */
export function qrObjectName(code: string): string {
  return `${code}.png`;
}

/** qrCodeUrl is where anyone can fetch `code`'s QR image. */
export function qrCodeUrl(code: string): string {
  return qrCodes.publicUrl(qrObjectName(code));
}
