// Encore: rejects "template literal expression not yet supported"
// Decided by: tsparser/src/parser/types/type_resolve.rs:966 (key remapping through a template literal type)
import { api } from "encore.dev/api";

interface Base {
  a: string;
}

type Prefixed = { [K in keyof Base as `x${K}`]: Base[K] }; // HERE

type Resp = Prefixed;

export const mappedAsTemplate = api({ method: "POST", path: "/mapped-as-template" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
