// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1921 (members without an initializer count up from the previous number)
// Response schema: { level: 0 | 5 | 6 }
import { api } from "encore.dev/api";

enum Level {
  Low,
  Mid = 5,
  High,
}

interface Resp {
  level: Level;
}

export const enumNumber = api({ method: "POST", path: "/enum-number" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
