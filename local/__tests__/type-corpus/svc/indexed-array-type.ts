// Encore: rejects "unsupported indexed access type operation: obj Array(Array(Basic(String))) index Basic(Number)"
// Decided by: tsparser/src/parser/types/type_resolve.rs:369 (type_index has no case for an array, even an array type)
import { api } from "encore.dev/api";

type Names = string[];

interface Resp {
  name: Names[number]; // HERE
}

export const indexedArrayType = api({ method: "POST", path: "/indexed-array-type" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
