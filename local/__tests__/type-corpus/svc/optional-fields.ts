// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:615 (`?` and `| undefined` both make a field optional)
// Response schema: { a?: string; b?: number; c?: string | boolean }
import { api } from "encore.dev/api";

interface Resp {
  a?: string;
  b: number | undefined;
  c: string | undefined | boolean;
}

export const optionalFields = api({ method: "POST", path: "/optional-fields" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
