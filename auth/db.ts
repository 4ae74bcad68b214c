import { SQLDatabase } from "encore.dev/storage/sqldb";

/** db holds user accounts and the login throttle; only the auth service touches it. */
export const db = new SQLDatabase("auth", { migrations: "./migrations" });
