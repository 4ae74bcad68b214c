// The last renewal of a "stay signed in" session, handed from the tab that made it to the next tab
// that takes the renewal lock. localStorage cannot carry it: each tab's process holds its own copy,
// updated by a message that a Web Lock grant can overtake, so the next tab could still read the used
// refresh token, send it, and have the server end the session for its reuse. IndexedDB is read from
// the browser's one copy, and a write whose transaction completed before the lock was released is
// seen by whoever holds the lock next.

/** One renewal: the refresh token it used up and what it got for it. */
export interface Handover<T> {
  from: string;
  to: T;
}

const DB_NAME = "shortener.session";
const STORE = "renewal";
const KEY = "last";

let opened: Promise<IDBDatabase> | null = null;

function database(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  return opened;
}

/** Runs one request in its own transaction; settles once the transaction has completed. */
async function inTransaction(mode: IDBTransactionMode, request: (store: IDBObjectStore) => IDBRequest): Promise<unknown> {
  const tx = (await database()).transaction(STORE, mode);
  const req = request(tx.objectStore(STORE));
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

/** The last renewal handed over, or null (also where IndexedDB is unavailable: the tab then relies on localStorage). */
export async function lastHandover<T>(): Promise<Handover<T> | null> {
  try {
    return ((await inTransaction("readonly", (s) => s.get(KEY))) as Handover<T> | undefined) ?? null;
  } catch {
    return null;
  }
}

/** Records a renewal (or forgets the last one, for null) before the renewal lock is released. */
export async function handOver<T>(renewal: Handover<T> | null): Promise<void> {
  try {
    await inTransaction("readwrite", (s): IDBRequest => (renewal === null ? s.delete(KEY) : s.put(renewal, KEY)));
  } catch {
    // Without IndexedDB the next tab reads localStorage, as it did before.
  }
}
