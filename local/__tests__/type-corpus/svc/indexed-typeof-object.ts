// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:300 (typeof of an object literal keeps the literal types of its values (TypeScript would say string))
// Response schema: { mode: "fast" }
import { api } from "encore.dev/api";

const CONFIG = { mode: "fast" };

interface Resp {
  mode: (typeof CONFIG)["mode"];
}

export const indexedTypeofObject = api({ method: "POST", path: "/indexed-typeof-object" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
