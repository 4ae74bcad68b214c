// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:221 (readonly changes nothing; Array<T> is T[])
// Response schema: { names: string[]; more: number[] }
import { api } from "encore.dev/api";

interface Resp {
  names: readonly string[];
  more: Array<number>;
}

export const readonlyArray = api({ method: "POST", path: "/readonly-array" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
