// Encore: rejects "unknown identifier"
// Decided by: tsparser/src/parser/types/type_resolve.rs:1024 (Uint8Array is not in Encore's universe, which declares only Promise, Date, Array and the utility types)
import { api } from "encore.dev/api";

interface Resp {
  data: Uint8Array; // HERE
}

export const uint8array = api({ method: "POST", path: "/uint8array" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
