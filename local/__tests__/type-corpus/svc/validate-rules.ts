// Encore: accepts
// Decided by: tsparser/src/parser/types/typ.rs:1346 (validation rules intersected with a base type)
// Response schema: { name: string & (MinLen<3> & MaxLen<10>); qty: number & Min<1>; contact: string & (IsEmail | IsURL) }
import { api } from "encore.dev/api";
import type { IsEmail, IsURL, MaxLen, Min, MinLen } from "encore.dev/validate";

interface Resp {
  name: string & MinLen<3> & MaxLen<10>;
  qty: number & Min<1>;
  contact: string & (IsEmail | IsURL);
}

export const validateRules = api({ method: "POST", path: "/validate-rules" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
