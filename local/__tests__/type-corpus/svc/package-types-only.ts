// Encore: rejects "object not found: QRCodeErrorCorrectionLevel"
// Decided by: tsparser/src/parser/types/object.rs:884 (qrcode's types live only in @types/qrcode, which Encore's resolver never reads: the name is looked up in qrcode's JavaScript)
import { api } from "encore.dev/api";
import type { QRCodeErrorCorrectionLevel } from "qrcode"; // HERE

interface Resp {
  level: QRCodeErrorCorrectionLevel;
}

export const packageTypesOnly = api({ method: "POST", path: "/package-types-only" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
