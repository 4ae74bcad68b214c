// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:134 (a generic type is converted through its instantiation)
// Response schema: { items: string[]; total: number }
import { api } from "encore.dev/api";

interface Page<T> {
  items: T[];
  total: number;
}

type Resp = Page<string>;

export const genericInterface = api({ method: "POST", path: "/generic-interface" }, async (): Promise<Resp> => {
  throw new Error("never called");
});
