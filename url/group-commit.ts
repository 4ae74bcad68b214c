// Group commit: concurrent callers share one write, and each learns its own outcome after it.

/** One queued item and the promise waiting for its result. */
interface Waiter<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (err: unknown) => void;
}

/** WriteBatch writes a batch in one step and returns one result per item, in order. */
export type WriteBatch<In, Out> = (items: In[]) => Promise<Out[]>;

/**
 * GroupCommit writes queued items in batches, one batch at a time: while a batch is being written,
 * new items queue, and the next batch leaves as soon as the previous one returns. There is no timer:
 * an idle queue writes the first item at the end of the current event-loop turn (setImmediate, so
 * everything that arrived in the same turn shares the write), and a lone item costs one round trip.
 * A caller is answered only after the write holding its item has returned; if that write fails,
 * every caller in the batch gets the error and the next batch is tried on its own.
 */
export class GroupCommit<In, Out> {
  private queue: Waiter<In, Out>[] = [];
  private writing = false;

  constructor(
    private readonly write: WriteBatch<In, Out>,
    /** The most items one batch holds, so one write stays bounded however long the queue grows. */
    readonly maxBatch: number,
  ) {
    if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be a positive integer, got ${maxBatch}`);
  }

  /** submit queues `item` and settles with its result once its batch is written. */
  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(batch.map((w) => w.item));
        if (results.length !== batch.length) throw new Error(`batch write returned ${results.length} results for ${batch.length} items`);
        batch.forEach((w, i) => w.resolve(results[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.writing = false;
  }
}
