// Encore: rejects "unsupported indexed access type operation: obj Union(Union { types: [] }) index Basic(Number)"
// Decided by: tsparser/src/parser/types/type_resolve.rs:369 (typeof of an array literal is an empty union (array_lit, line 1632), and type_index cannot index a union with number)
import { api } from "encore.dev/api";

const KINDS = ["mobile", "desktop"] as const;

interface Resp {
  kind: (typeof KINDS)[number]; // HERE
}

export const indexedTypeofArray = api({ method: "POST", path: "/indexed-typeof-array" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
