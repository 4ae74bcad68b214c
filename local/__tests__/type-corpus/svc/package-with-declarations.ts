// Encore: accepts
// Decided by: tsparser/src/parser/types/object.rs:884 (croner ships its declarations: its exports resolve (condition default, then the .d.ts beside the .js))
// Response schema: { mode: "auto" | "5-part" | "6-part" | "7-part" | "5-or-6-parts" | "6-or-7-parts" }
import { api } from "encore.dev/api";
import type { CronMode } from "croner";

interface Resp {
  mode: CronMode;
}

export const packageWithDeclarations = api({ method: "POST", path: "/package-with-declarations" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
