// Group commit: concurrent callers share one write (or one read), and each learns its own outcome after it.
import { AsyncResource } from "node:async_hooks";
import diagnostics_channel from "node:diagnostics_channel";

/** WriteBatch writes a batch in one step and returns one result per item, in order. */
export type WriteBatch<In, Out> = (items: In[]) => Promise<Out[]>;

/** One queued item and the promise waiting for its result. */
interface Waiter<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
  /**
   * Set on an item that will open a batch: the async context of the call that queued it, which the
   * batch's write runs in, so the statement belongs to (and is traced in) that caller's request, not
   * to whichever request happened to start the drain loop, which may have long finished.
   */
  opener?: AsyncResource;
}

/**
 * What a GroupCommit announces on the `group-commit` diagnostics channel, for tools that show the
 * batches' state (the local development dashboard). Nothing subscribes under Encore, and with no
 * subscriber nothing is built or sent.
 */
export type BatchMessage =
  | { name: string; event: "queue"; queued: number }
  | { name: string; event: "start"; batch: number; size: number; queued: number }
  | { name: string; event: "end"; batch: number; size: number; queued: number; durationMs: number; error?: unknown };

export const BATCH_CHANNEL = "group-commit";
const channel = diagnostics_channel.channel(BATCH_CHANNEL);

/**
 * GroupCommit writes queued items in batches, one batch at a time: while a batch is being written,
 * new items queue, and the next batch leaves as soon as the previous one returns, before that one's
 * callers are answered, so the database and this thread work side by side. There is no timer:
 * an idle queue writes the first item at the end of the current event-loop turn (setImmediate, so
 * everything that arrived in the same turn shares the write), and a lone item costs one round trip.
 * A caller is answered only after the write holding its item has returned; if that write fails,
 * every caller in the batch gets the error and the next batch is tried on its own.
 */
export class GroupCommit<In, Out> {
  private queue: Waiter<In, Out>[] = [];
  private writing = false;
  private batches = 0;

  constructor(
    private readonly write: WriteBatch<In, Out>,
    /** The most items one batch holds, so one write stays bounded however long the queue grows. */
    readonly maxBatch: number,
    /** What the batches are called on the diagnostics channel. */
    readonly name = "batch",
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  /** A GroupCommit for a write that has no result per item: each caller just learns it was written. */
  static ofWrites<In>(write: (items: In[]) => Promise<void>, maxBatch: number, name?: string): GroupCommit<In, void> {
    return new GroupCommit<In, void>(
      async (items: In[]) => {
        await write(items);
        return items.map(() => undefined);
      },
      maxBatch,
      name,
    );
  }

  /** submit queues `item` and settles with its result once its batch is written. */
  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      // Every batch takes maxBatch items, or all that are left: so the items queued at a multiple of
      // maxBatch are exactly the ones that will open a batch.
      const opens = this.queue.length % this.maxBatch === 0;
      this.queue.push({ item, resolve, reject, opener: opens ? new AsyncResource("group-commit") : undefined });
      if (channel.hasSubscribers) channel.publish({ name: this.name, event: "queue", queued: this.queue.length } satisfies BatchMessage);
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Takes the next batch off the queue and starts writing it. */
  private startBatch(): { batch: Waiter<In, Out>[]; written: Promise<Out[]> } {
    const batch = this.queue.splice(0, this.maxBatch);
    const items = batch.map((w) => w.item);
    return { batch, written: batch[0].opener!.runInAsyncScope(() => this.writeBatch(items)) };
  }

  private async drain(): Promise<void> {
    let current = this.startBatch();
    for (;;) {
      const { batch, written } = current;
      let settle: () => void;
      try {
        const results = await written;
        if (results.length !== batch.length) throw new Error(`batch write returned ${results.length} results for ${batch.length} items`);
        settle = () => batch.forEach((w, i) => w.resolve(results[i]));
      } catch (err) {
        settle = () => batch.forEach((w) => w.reject(err));
      }
      // The next batch leaves before this one's callers are answered: the database works on it while
      // this thread answers them. Answers wait for the next macrotask (in batch order), so that the new
      // write's own steps (microtasks and the pool's nextTick) reach the socket first.
      const more = this.queue.length > 0;
      if (more) current = this.startBatch();
      setImmediate(settle);
      if (!more) break;
    }
    this.writing = false;
  }

  /** Writes one batch, announcing its start and end when someone listens. */
  private async writeBatch(items: In[]): Promise<Out[]> {
    if (!channel.hasSubscribers) return this.write(items);
    const base = { name: this.name, batch: ++this.batches, size: items.length };
    channel.publish({ ...base, event: "start", queued: this.queue.length } satisfies BatchMessage);
    const started = performance.now();
    const end = (error?: unknown) =>
      channel.publish({
        ...base,
        event: "end",
        queued: this.queue.length,
        durationMs: performance.now() - started,
        error,
      } satisfies BatchMessage);
    try {
      const results = await this.write(items);
      end();
      return results;
    } catch (err) {
      end(err);
      throw err;
    }
  }
}
