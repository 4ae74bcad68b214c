// One transaction on a service's database, committed when the work returns and rolled back when it
// throws, so a change and the rows that must accompany it are stored together or not at all.
import type { SQLDatabase, Transaction } from "encore.dev/storage/sqldb";
import log from "encore.dev/log";

/** inTransaction runs `work` in a transaction on `db` and commits it, or rolls it back and rethrows. */
export async function inTransaction<T>(db: SQLDatabase, work: (tx: Transaction) => Promise<T>): Promise<T> {
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
