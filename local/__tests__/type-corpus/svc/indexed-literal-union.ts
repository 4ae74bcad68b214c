// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:322 (T["a" | "b"] is the union of those fields' types)
// Response schema: { v: string | number }
import { api } from "encore.dev/api";

interface Base {
  a: string;
  b: number;
}

interface Resp {
  v: Base["a" | "b"];
}

export const indexedLiteralUnion = api({ method: "POST", path: "/indexed-literal-union" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
