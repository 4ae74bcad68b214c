// Encore: rejects "implicit enum value cannot follow string value"
// Decided by: tsparser/src/parser/types/type_resolve.rs:1939 (a member without initializer after a string member)
import { api } from "encore.dev/api";

enum Mixed {
  A = "a",
  B, // HERE
}

interface Resp {
  mixed: Mixed;
}

export const enumImplicitAfterString = api({ method: "POST", path: "/enum-implicit-after-string" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
