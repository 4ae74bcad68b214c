// Encore: accepts
// Decided by: tsparser/src/legacymeta/schema.rs:291 (Header<> and Query<> name where a field travels)
// Request schema: { auth@header(Authorization): string; page@query(p): number; limit?: number }
import { api } from "encore.dev/api";
import type { Header, Query } from "encore.dev/api";

interface Req {
  auth: Header<"Authorization">;
  page: Query<number, "p">;
  limit?: number;
}

export const headerQuery = api({ method: "GET", path: "/header-query" }, async (p: Req): Promise<void> => {});
