import { SQLDatabase } from "encore.dev/storage/sqldb";

/** The analytics database: per-day counts and the codes already counted (for idempotency). */
export const db = new SQLDatabase("analytics", { migrations: "./migrations" });
