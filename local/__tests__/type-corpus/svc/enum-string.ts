// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:101 (an enum is the union of its member values)
// Response schema: { color: "red" | "blue" }
import { api } from "encore.dev/api";

enum Color {
  Red = "red",
  Blue = "blue",
}

interface Resp {
  color: Color;
}

export const enumString = api({ method: "POST", path: "/enum-string" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
