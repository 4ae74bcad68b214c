// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1632 (array_lit never fills its element list: typeof an array literal is an empty union (TypeScript: string[]))
// Response schema: { names: (empty union) }
import { api } from "encore.dev/api";

const NAMES = ["a", "b"];

interface Resp {
  names: typeof NAMES;
}

export const typeofArrayLiteral = api({ method: "POST", path: "/typeof-array-literal" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
