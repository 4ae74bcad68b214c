// The embedded engine has a single connection: statements take turns, and a transaction or an
// acquired connection keeps it until it ends. A statement issued outside an open transaction from
// the code that holds that transaction would therefore wait forever (on a server it would run on
// another connection). We detect that: begin()/acquire() mark the caller's async context, and a
// statement from a marked context that finds its own transaction idle for a while fails with a
// clear error instead of hanging.
import { AsyncLocalStorage } from "node:async_hooks";

/** Who asks for a session: a single statement, or a transaction or connection that keeps it. */
export type SessionKind = "statement" | "transaction" | "connection";

/** The holder of a session. */
export interface Holder {
  kind: SessionKind;
  /** Statements in flight on the held session, and when the last one ended. */
  inFlight: number;
  idleSince: number;
  released: boolean;
  /** The open holder the marked context already owned (a transaction begun inside another). */
  outer?: Holder;
}

/** A fresh holder record. */
export function newHolder(kind: SessionKind): Holder {
  return { kind, inFlight: 0, idleSince: Date.now(), released: false };
}

/** How long the transaction must sit idle before a waiting statement from its own context gives up. */
export const DEADLOCK_IDLE_MS = 1000;

const context = new AsyncLocalStorage<Holder>();

/**
 * Runs `fn` in a context that owns no transaction: for work that starts an independent flow (an HTTP
 * request, a Pub/Sub delivery), which must not inherit ownership from whatever context scheduled it.
 */
export function detachedFromTransactions<T>(fn: () => T): T {
  return context.run(undefined as unknown as Holder, fn);
}

/** Marks the calling async context as the owner of a transaction or connection about to be opened. */
export function markOwner(holder: Holder): void {
  holder.outer = openOwners(context.getStore())[0];
  context.enterWith(holder);
}

/** The holder the calling context was marked with, if any. */
export function markedOwner(): Holder | undefined {
  return context.getStore();
}

/** The still-open holders a context owns, innermost first. */
function openOwners(h: Holder | undefined): Holder[] {
  const out: Holder[] = [];
  for (; h !== undefined; h = h.outer) if (!h.released) out.push(h);
  return out;
}

interface Waiter {
  holder: Holder;
  grant: () => void;
  fail: (err: Error) => void;
}

/** A FIFO lock over one connection. */
export class ConnectionLock {
  private current: Holder | null = null;
  private readonly queue: Waiter[] = [];

  constructor(private readonly deadlockMessage: () => string) {}

  /** Waits for the connection; rejects if the caller's own open transaction holds it and sits idle. */
  acquire(holder: Holder): Promise<void> {
    if (this.current === null) {
      this.current = holder;
      return Promise.resolve();
    }
    const owners = openOwners(context.getStore());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { holder, grant: resolve, fail: reject };
      this.queue.push(waiter);
      if (owners.length > 0) this.watch(waiter, owners);
    });
  }

  /** Takes the connection only if nobody holds it or waits for it; says whether it did. */
  tryAcquire(holder: Holder): boolean {
    if (this.current !== null || this.queue.length > 0) return false;
    this.current = holder;
    return true;
  }

  /** Hands the connection to the next waiter. */
  release(holder: Holder): void {
    if (this.current !== holder) return;
    holder.released = true;
    const next = this.queue.shift();
    this.current = next?.holder ?? null;
    next?.grant();
  }

  private watch(waiter: Waiter, owners: Holder[]): void {
    const timer = setInterval(() => {
      if (!this.queue.includes(waiter) || owners.every((o) => o.released)) {
        clearInterval(timer);
        return;
      }
      const owner = owners.find((o) => o === this.current);
      if (owner && owner.inFlight === 0 && Date.now() - owner.idleSince >= DEADLOCK_IDLE_MS) {
        clearInterval(timer);
        this.queue.splice(this.queue.indexOf(waiter), 1);
        waiter.holder.released = true;
        waiter.fail(new Error(this.deadlockMessage()));
      }
    }, DEADLOCK_IDLE_MS / 4);
    timer.unref();
  }
}
