// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1322 (type_alias_decl: an alias is the type it names)
// Response schema: { id: number; tags: string[] }
import { api } from "encore.dev/api";

type Resp = { id: number; tags: string[] };

export const aliasObject = api({ method: "POST", path: "/alias-object" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
