// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:7 (Partial<T> = { [P in keyof T]?: T[P] })
// Response schema: { a?: string; b?: number }
import { api } from "encore.dev/api";

interface Base {
  a: string;
  b: number;
}

type Resp = Partial<Base>;

export const partial = api({ method: "POST", path: "/partial" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
