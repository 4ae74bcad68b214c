// Encore: rejects "tuple types are not yet supported in schemas"
// Decided by: tsparser/src/legacymeta/schema.rs:127 (a tuple resolves but has no schema)
import { api } from "encore.dev/api";

interface Resp {
  pair: [string, number];
}

export const tuple = api({ method: "POST", path: "/tuple" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
