// Encore: rejects "unsupported basic type in schema: Never"
// Decided by: tsparser/src/parser/types/typ.rs:1162 (extends has no case for array against array: string[] extends (infer U)[] is false, so the type is never (TypeScript: string))
import { api } from "encore.dev/api";

type Elem<T> = T extends (infer U)[] ? U : never;

interface Resp {
  first: Elem<string[]>;
}

export const conditionalInferArray = api({ method: "POST", path: "/conditional-infer-array" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
