// One transaction on the url database, so a change and the rows that must accompany it (its audit
// entry) are stored together or not at all.
import type { Transaction } from "encore.dev/storage/sqldb";
import { inTransaction as inDatabaseTransaction } from "../lib/transaction";
import { db } from "./db";

/** inTransaction runs `work` in a transaction on the url database and commits it, or rolls it back and rethrows. */
export function inTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  return inDatabaseTransaction(db, work);
}
