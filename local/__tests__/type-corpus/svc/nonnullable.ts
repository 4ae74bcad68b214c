// Encore: rejects "unresolved generic types are not supported in schemas, got: Intersection("
// Decided by: tsparser/src/parser/types/typ.rs:1448 (NonNullable<T> = T & {}: a basic type intersected with an interface stays an unresolved intersection)
import { api } from "encore.dev/api";

interface Resp {
  value: NonNullable<string | null>;
}

export const nonnullable = api({ method: "POST", path: "/nonnullable" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
