// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:212 (any and unknown are any)
// Response schema: { a: any; u: any }
import { api } from "encore.dev/api";

interface Resp {
  a: any;
  u: unknown;
}

export const anyUnknown = api({ method: "POST", path: "/any-unknown" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
