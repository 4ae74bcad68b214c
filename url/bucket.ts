import { Bucket } from "encore.dev/storage/objects";

/** qrCodes holds one public PNG per short link, named `<code>.png`, so a QR image can be linked directly. */
export const qrCodes = new Bucket("qr-codes", { public: true, versioned: false });
