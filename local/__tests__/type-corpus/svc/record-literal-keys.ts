// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:2285 (a mapped type over string literals has one field per literal)
// Response schema: { byDay: { mon: number; tue: number } }
import { api } from "encore.dev/api";

interface Resp {
  byDay: Record<"mon" | "tue", number>;
}

export const recordLiteralKeys = api({ method: "POST", path: "/record-literal-keys" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
