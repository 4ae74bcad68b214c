// Encore: rejects "unknown identifier"
// Decided by: tsparser/src/parser/types/type_resolve.rs:1024 (ReturnType (like Awaited, Parameters, ...) is not in Encore's universe)
import { api } from "encore.dev/api";

function make(): { a: string } {
  return { a: "" };
}

interface Resp {
  made: ReturnType<typeof make>; // HERE
}

export const utilityNotInUniverse = api({ method: "POST", path: "/utility-not-in-universe" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
