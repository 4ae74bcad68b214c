// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:226 (bigint travels as a decimal)
// Response schema: { big: bigint }
import { api } from "encore.dev/api";

interface Resp {
  big: bigint;
}

export const bigint = api({ method: "POST", path: "/bigint" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
