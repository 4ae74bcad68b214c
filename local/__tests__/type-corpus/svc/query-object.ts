// Encore: rejects "type not supported for query parameters"
// Decided by: tsparser/src/app/mod.rs:184 (a GET request's plain fields go in the query string, which cannot carry an object)
import { api } from "encore.dev/api";

interface Req {
  filter: { name: string }; // HERE
}

export const queryObject = api({ method: "GET", path: "/query-object" }, async (p: Req): Promise<void> => {});
