// Encore: rejects "class types are not yet supported in schemas"
// Decided by: tsparser/src/legacymeta/schema.rs:132 (a class resolves, but has no schema)
import { api } from "encore.dev/api";

class Point {
  x = 0;
}

interface Resp {
  point: Point;
}

export const classField = api({ method: "POST", path: "/class-field" }, async (): Promise<Resp> => { // HERE
  throw new Error("never called");
});
