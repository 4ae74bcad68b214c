// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:220 (null is a literal in a union)
// Response schema: { note: string | null }
import { api } from "encore.dev/api";

interface Resp {
  note: string | null;
}

export const nullable = api({ method: "POST", path: "/nullable" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
