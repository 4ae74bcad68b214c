// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:2285 (a mapped type is evaluated over its keys)
// Response schema: { a: boolean; b: boolean }
import { api } from "encore.dev/api";

type Flags = { [K in "a" | "b"]: boolean };

type Resp = Flags;

export const mapped = api({ method: "POST", path: "/mapped" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
