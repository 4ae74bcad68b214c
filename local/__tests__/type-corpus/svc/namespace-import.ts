// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1171 (m.T on a namespace import is the module's named export)
// Response schema: { role: "admin" | "member" }
import { api } from "encore.dev/api";
import type * as users from "./lib/user";

interface Resp {
  role: users.Role;
}

export const namespaceImport = api({ method: "POST", path: "/namespace-import" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
