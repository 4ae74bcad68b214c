// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:2199 (a conditional type is decided once its type argument is known)
// Response schema: { answer: "yes" }
import { api } from "encore.dev/api";

type IsString<T> = T extends string ? "yes" : "no";

interface Resp {
  answer: IsString<"a">;
}

export const conditional = api({ method: "POST", path: "/conditional" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
