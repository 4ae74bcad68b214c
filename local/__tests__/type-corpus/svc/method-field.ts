// Encore: rejects "function types are not supported in schemas"
// Decided by: tsparser/src/legacymeta/schema.rs:201 (a method signature resolves to a function type, which no schema can carry)
import { api } from "encore.dev/api";

interface Resp {
  run(): void;
}

export const methodField = api({ method: "POST", path: "/method-field" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
