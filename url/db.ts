import { SQLDatabase } from "encore.dev/storage/sqldb";

/** db holds the short links (table urls). */
export const db = new SQLDatabase("url", { migrations: "./migrations" });
