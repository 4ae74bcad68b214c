// Encore: accepts
// Decided by: tsparser/src/parser/universe.ts:14 (Required<T> makes every field required (-?))
// Response schema: { a: string }
import { api } from "encore.dev/api";

interface Base {
  a?: string;
}

type Resp = Required<Base>;

export const required = api({ method: "POST", path: "/required" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
