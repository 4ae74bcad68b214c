// Encore: rejects "template literal expression not yet supported"
// Decided by: tsparser/src/parser/types/type_resolve.rs:966 (template literal types are not supported)
import { api } from "encore.dev/api";

interface Resp {
  id: `user-${string}`; // HERE
}

export const templateLiteral = api({ method: "POST", path: "/template-literal" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
