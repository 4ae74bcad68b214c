// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:35 (Record<string, V> is a mapped type whose string key becomes an index signature)
// Response schema: { counts: Record<string, number> }
import { api } from "encore.dev/api";

interface Resp {
  counts: Record<string, number>;
}

export const record = api({ method: "POST", path: "/record" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
