// Encore: rejects "unsupported validation: MaxLen<50> cannot be applied to Email"
// Decided by: tsparser/src/app/mod.rs:251 (`Alias & Rule` keeps the alias unresolved (typ.rs:1346), and a rule does not fit a named type)
import { api } from "encore.dev/api";
import type { IsEmail, MaxLen } from "encore.dev/validate";

type Email = string & IsEmail;

interface Resp {
  owner: Email & MaxLen<50>;
}

export const validateOnAlias = api({ method: "POST", path: "/validate-on-alias" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
