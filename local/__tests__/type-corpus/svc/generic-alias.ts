// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:2477 (underlying_named substitutes the type arguments)
// Response schema: { value: Date }
import { api } from "encore.dev/api";

type Box<T> = { value: T };

type Resp = Box<Date>;

export const genericAlias = api({ method: "POST", path: "/generic-alias" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
