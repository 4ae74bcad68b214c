// Encore: accepts
// Decided by: tsparser/src/parser/types/object.rs:884 (an import is resolved to the exporting module's object)
// Response schema: { user: { id: string; role: "admin" | "member" } }
import { api } from "encore.dev/api";
import type { User } from "./lib/user";

interface Resp {
  user: User;
}

export const importedFromFile = api({ method: "POST", path: "/imported-from-file" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
