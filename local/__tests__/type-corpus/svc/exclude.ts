// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:42 (Exclude distributes over the union)
// Response schema: { kind: "b" }
import { api } from "encore.dev/api";

interface Resp {
  kind: Exclude<"a" | "b", "a">;
}

export const exclude = api({ method: "POST", path: "/exclude" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
