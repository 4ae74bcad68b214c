// One transaction on the url database, committed when the work returns and rolled back when it throws,
// so a change and the rows that must accompany it (its audit entry) are stored together or not at all.
import type { Transaction } from "encore.dev/storage/sqldb";
import log from "encore.dev/log";
import { db } from "./db";

/** inTransaction runs `work` in a transaction and commits it, or rolls it back and rethrows. */
export async function inTransaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = await db.begin();
  let result: T;
  try {
    result = await work(tx);
  } catch (err) {
    await tx.rollback().catch((rollbackErr) => log.warn(rollbackErr, "rollback failed after an error"));
    throw err;
  }
  await tx.commit();
  return result;
}
