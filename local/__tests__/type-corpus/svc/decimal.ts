// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:196 (Decimal from encore.dev/types)
// Response schema: { price: Decimal }
import { api } from "encore.dev/api";
import type { Decimal } from "encore.dev/types";

interface Resp {
  price: Decimal;
}

export const decimal = api({ method: "POST", path: "/decimal" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
