// Encore: rejects "unsupported basic type in schema: Never"
// Decided by: tsparser/src/legacymeta/schema.rs:228 (string & number is never, which no schema can carry)
import { api } from "encore.dev/api";

type Resp = { a: string } & { a: number };

export const intersectionConflict = api({ method: "POST", path: "/intersection-conflict" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
