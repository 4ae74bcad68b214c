// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:409 (keyof string is an empty union to Encore (TypeScript lists string's methods))
// Response schema: { key: (empty union) }
import { api } from "encore.dev/api";

interface Resp {
  key: keyof string;
}

export const keyofString = api({ method: "POST", path: "/keyof-string" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
