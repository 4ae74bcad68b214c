// Encore: rejects "unsupported standalone validation expression: MinLen<3>"
// Decided by: tsparser/src/app/mod.rs:265 (a rule needs a base type to apply to)
import { api } from "encore.dev/api";
import type { MinLen } from "encore.dev/validate";

interface Resp {
  name: MinLen<3>;
}

export const validateStandalone = api({ method: "POST", path: "/validate-standalone" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
