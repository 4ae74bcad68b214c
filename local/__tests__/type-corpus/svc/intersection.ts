// Encore: accepts
// Decided by: tsparser/src/parser/types/typ.rs:1378 (intersecting two interfaces adds their fields)
// Response schema: { a: string; b: number }
import { api } from "encore.dev/api";

type Resp = { a: string } & { b: number };

export const intersection = api({ method: "POST", path: "/intersection" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
