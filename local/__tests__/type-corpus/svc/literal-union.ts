// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:121 (a union of literals stays a union of literals)
// Response schema: { status: "active" | "archived" }
import { api } from "encore.dev/api";

interface Resp {
  status: "active" | "archived";
}

export const literalUnion = api({ method: "POST", path: "/literal-union" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
