// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1635 (object_lit keeps each value's literal type)
// Response schema: { config: { mode: "fast"; retries: 3 } }
import { api } from "encore.dev/api";

const CONFIG = { mode: "fast", retries: 3 };

interface Resp {
  config: typeof CONFIG;
}

export const typeofObjectLiteral = api({ method: "POST", path: "/typeof-object-literal" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
