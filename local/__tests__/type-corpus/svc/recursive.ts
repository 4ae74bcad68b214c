// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:134 (a named type is declared once, so it may refer to itself (this runtime's schema stops at the recursion with any))
// Response schema: { tree: { label: string; children: any[] } }
import { api } from "encore.dev/api";

interface Tree {
  label: string;
  children: Tree[];
}

interface Resp {
  tree: Tree;
}

export const recursive = api({ method: "POST", path: "/recursive" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
