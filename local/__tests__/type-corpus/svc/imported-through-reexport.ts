// Encore: accepts
// Decided by: tsparser/src/parser/types/object.rs:247 (`export * from` is searched for a name the module does not export itself)
// Response schema: { user: { id: string; role: "admin" | "member" } }
import { api } from "encore.dev/api";
import type { User } from "./lib/index";

interface Resp {
  user: User;
}

export const importedThroughReexport = api({ method: "POST", path: "/imported-through-reexport" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
