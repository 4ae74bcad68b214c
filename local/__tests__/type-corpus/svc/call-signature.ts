// Encore: rejects "call signatures are not supported in schema types"
// Decided by: tsparser/src/app/mod.rs:224 (a callable interface cannot be a response)
import { api } from "encore.dev/api";

interface Resp {
  (x: number): string;
  a: string;
}

export const callSignature = api({ method: "POST", path: "/call-signature" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
