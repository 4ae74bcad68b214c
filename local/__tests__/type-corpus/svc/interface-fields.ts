// Encore: accepts
// Decided by: tsparser/src/parser/types/type_resolve.rs:1342 (do_interface_decl: an interface's members are its fields)
// Response schema: { id: number; name: string }
import { api } from "encore.dev/api";

interface Resp {
  id: number;
  name: string;
}

export const interfaceFields = api({ method: "POST", path: "/interface-fields" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
