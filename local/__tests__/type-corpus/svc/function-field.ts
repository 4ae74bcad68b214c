// Encore: rejects "unsupported: TsFnOrConstructorType(TsFnType(..))"
// Decided by: tsparser/src/parser/types/type_resolve.rs:198 (a function type has no type to Encore's resolver)
import { api } from "encore.dev/api";

interface Resp {
  callback: () => void; // HERE
}

export const functionField = api({ method: "POST", path: "/function-field" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
