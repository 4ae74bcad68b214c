// Encore: rejects "unsupported spread"
// Decided by: tsparser/src/parser/types/type_resolve.rs:1699 (a spread in an object literal must itself be an object literal)
import { api } from "encore.dev/api";

const BASE = { a: 1 };
const MORE = { ...BASE, b: 2 }; // HERE

interface Resp {
  more: typeof MORE;
}

export const typeofSpreadOfIdentifier = api({ method: "POST", path: "/typeof-spread-of-identifier" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
