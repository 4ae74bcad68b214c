// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:322 ((typeof O)[keyof typeof O]: keyof gives the literal keys, the index the literal values)
// Response schema: { status: 200 | 404 }
import { api } from "encore.dev/api";

const STATUS = { ok: 200, missing: 404 } as const;

interface Resp {
  status: (typeof STATUS)[keyof typeof STATUS];
}

export const indexedTypeofObjectKeyof = api({ method: "POST", path: "/indexed-typeof-object-keyof" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
