// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1040 (Date from the universe is the Date builtin)
// Response schema: { at: Date }
import { api } from "encore.dev/api";

interface Resp {
  at: Date;
}

export const date = api({ method: "POST", path: "/date" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
