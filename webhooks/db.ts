import { SQLDatabase } from "encore.dev/storage/sqldb";

/** db holds the webhooks and every delivery attempt; only the webhooks service touches it. */
export const db = new SQLDatabase("webhooks", { migrations: "./migrations" });
