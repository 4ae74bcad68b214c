// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:300 (T["field"] is the field's type)
// Response schema: { id: number }
import { api } from "encore.dev/api";

interface Base {
  id: number;
}

interface Resp {
  id: Base["id"];
}

export const indexedInterface = api({ method: "POST", path: "/indexed-interface" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
