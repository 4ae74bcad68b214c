// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:435 (keyof an interface is the union of its field names)
// Response schema: { key: "a" | "b" }
import { api } from "encore.dev/api";

interface Base {
  a: string;
  b: number;
}

interface Resp {
  key: keyof Base;
}

export const keyofInterface = api({ method: "POST", path: "/keyof-interface" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
