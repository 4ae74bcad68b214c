// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:28 (Pick<T, K> = { [P in K]: T[P] }; an optional field stays optional)
// Response schema: { a: string; c?: boolean }
import { api } from "encore.dev/api";

interface Base {
  a: string;
  b: number;
  c?: boolean;
}

type Resp = Pick<Base, "a" | "c">;

export const pick = api({ method: "POST", path: "/pick" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
