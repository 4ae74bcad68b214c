// Encore: rejects "type index is not supported in schema types"
// Decided by: tsparser/src/app/mod.rs:221 (a response must have fields, not an index signature (a nested Record is fine))
import { api } from "encore.dev/api";

interface Resp {
  [key: string]: number;
}

export const indexSignatureTop = api({ method: "POST", path: "/index-signature-top" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
