// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1176 (Ns.T on a namespace declaration is its exported member)
// Response schema: { id: string }
import { api } from "encore.dev/api";

namespace Models {
  export interface Ref {
    id: string;
  }
}

type Resp = Models.Ref;

export const namespaceQualified = api({ method: "POST", path: "/namespace-qualified" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
