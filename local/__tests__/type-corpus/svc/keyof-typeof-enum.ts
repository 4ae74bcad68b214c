// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:423 (keyof typeof an enum is the union of its member names)
// Response schema: { name: "Red" | "Blue" }
import { api } from "encore.dev/api";

enum Color {
  Red = "red",
  Blue = "blue",
}

interface Resp {
  name: keyof typeof Color;
}

export const keyofTypeofEnum = api({ method: "POST", path: "/keyof-typeof-enum" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
