// Encore: rejects "unsupported basic type in schema: Object"
// Decided by: tsparser/src/legacymeta/schema.rs:228 (the object keyword has no schema)
import { api } from "encore.dev/api";

interface Resp {
  value: object;
}

export const objectKeyword = api({ method: "POST", path: "/object-keyword" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
