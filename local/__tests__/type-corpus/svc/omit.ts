// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:52 (Omit<T, K> = Pick<T, Exclude<keyof T, K>>, evaluated by distributing Exclude over the keys)
// Response schema: { b: number }
import { api } from "encore.dev/api";

interface Base {
  a: string;
  b: number;
}

type Resp = Omit<Base, "a">;

export const omit = api({ method: "POST", path: "/omit" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
