import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics_channel from "node:diagnostics_channel";
import { describe, expect, it } from "vitest";
import { BATCH_CHANNEL, type BatchMessage, GroupCommit } from "./group-commit";

/** A batch writer the test finishes by hand, recording every batch it was given. */
function manualWriter() {
  const batches: number[][] = [];
  const pending: { finish: () => void; fail: (err: Error) => void }[] = [];
  const write = (items: number[]): Promise<string[]> => {
    batches.push(items);
    return new Promise((resolve, reject) => {
      pending.push({ finish: () => resolve(items.map((i) => `done ${i}`)), fail: reject });
    });
  };
  return { write, batches, pending };
}

/** Lets queued immediates and promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe("GroupCommit", () => {
  it("writes a lone item at once, in a batch of its own", async () => {
    const { write, batches, pending } = manualWriter();
    const queue = new GroupCommit(write, 10);
    const result = queue.submit(1);
    await settle();
    expect(batches).toEqual([[1]]);
    pending[0].finish();
    expect(await result).toBe("done 1");
  });

  it("puts what arrives in the same turn into one write", async () => {
    const { write, batches, pending } = manualWriter();
    const queue = new GroupCommit(write, 10);
    const results = [1, 2, 3].map((i) => queue.submit(i));
    await settle();
    expect(batches).toEqual([[1, 2, 3]]);
    pending[0].finish();
    expect(await Promise.all(results)).toEqual(["done 1", "done 2", "done 3"]);
  });

  it("queues items while a batch is written and sends them together as soon as it returns", async () => {
    const { write, batches, pending } = manualWriter();
    const queue = new GroupCommit(write, 10);
    const first = queue.submit(1);
    await settle();
    const later = [2, 3, 4].map((i) => queue.submit(i));
    await settle();
    expect(batches).toEqual([[1]]); // one write in flight at a time

    let laterSettled = false;
    void Promise.all(later).then(() => (laterSettled = true));
    pending[0].finish();
    expect(await first).toBe("done 1");
    await settle();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(laterSettled).toBe(false); // answered only after their own write returns
    pending[1].finish();
    expect(await Promise.all(later)).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("sends the next batch before it answers the callers of the one that returned", async () => {
    // Like a pooled database client, the write reaches its socket only after a nextTick: the next
    // batch must get there before this thread spends its time answering the last batch's callers.
    const events: string[] = [];
    const finishFirst: (() => void)[] = [];
    const write = async (items: number[]) => {
      await new Promise((resolve) => process.nextTick(resolve));
      events.push(`sent ${items.join(",")}`);
      if (items[0] === 1) await new Promise<void>((resolve) => finishFirst.push(resolve));
      return items;
    };
    const queue = new GroupCommit(write, 10);
    const first = queue.submit(1).then(() => events.push("answered 1"));
    await settle();
    const second = queue.submit(2).then(() => events.push("answered 2"));
    finishFirst[0]();
    await Promise.all([first, second]);
    expect(events).toEqual(["sent 1", "sent 2", "answered 1", "answered 2"]);
  });

  it("never puts more than maxBatch items in one write", async () => {
    const { write, batches, pending } = manualWriter();
    const queue = new GroupCommit(write, 2);
    const results = [1, 2, 3, 4, 5].map((i) => queue.submit(i));
    await settle();
    expect(batches).toEqual([[1, 2]]);
    pending[0].finish();
    await settle();
    pending[1].finish();
    await settle();
    pending[2].finish();
    expect(await Promise.all(results)).toHaveLength(5);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("fails every item of a failed batch, and only those", async () => {
    const { write, batches, pending } = manualWriter();
    const queue = new GroupCommit(write, 10);
    const failed = [queue.submit(1), queue.submit(2)];
    await settle();
    const next = queue.submit(3);
    pending[0].fail(new Error("database went away"));
    for (const p of failed) await expect(p).rejects.toThrow("database went away");
    await settle();
    expect(batches).toEqual([[1, 2], [3]]);
    pending[1].finish();
    expect(await next).toBe("done 3");
  });

  it("fails the batch when the writer returns the wrong number of results", async () => {
    const queue = new GroupCommit(async (items: number[]) => items.slice(1), 10);
    await expect(Promise.all([queue.submit(1), queue.submit(2)])).rejects.toThrow("batch write returned 1 results for 2 items");
    expect(await new GroupCommit(async (items: number[]) => items, 10).submit(7)).toBe(7);
  });

  it("ofWrites answers each caller of a write without results once its batch is written, and passes its failure on", async () => {
    const written: number[][] = [];
    let fail = false;
    const queue = GroupCommit.ofWrites(async (items: number[]) => {
      written.push(items);
      if (fail) throw new Error("disk full");
    }, 10);
    expect(await Promise.all([queue.submit(1), queue.submit(2), queue.submit(3)])).toEqual([undefined, undefined, undefined]);
    expect(written).toEqual([[1, 2, 3]]);
    fail = true;
    await expect(queue.submit(4)).rejects.toThrow("disk full");
  });

  it("writes each batch in the async context of the call that opened it, not the one that started the queue", async () => {
    const caller = new AsyncLocalStorage<string>();
    const contexts: (string | undefined)[] = [];
    const { write, pending } = manualWriter();
    const queue = new GroupCommit((items: number[]) => (contexts.push(caller.getStore()), write(items)), 2);
    const results = ["a", "b", "c", "d", "e"].map((name, i) => caller.run(name, () => queue.submit(i)));
    for (let i = 0; i < 3; i++) {
      await settle();
      pending[i].finish();
    }
    await Promise.all(results);
    expect(contexts).toEqual(["a", "c", "e"]);
  });

  it("announces queued items and each batch's start and end, with its error, on the diagnostics channel", async () => {
    const heard: BatchMessage[] = [];
    const listen = (m: unknown) => heard.push(m as BatchMessage);
    diagnostics_channel.subscribe(BATCH_CHANNEL, listen);
    try {
      const { write, pending } = manualWriter();
      const queue = new GroupCommit(write, 10, "test-batches");
      const first = [queue.submit(1), queue.submit(2)];
      await settle();
      const second = queue.submit(3);
      pending[0].finish();
      await Promise.all(first);
      await settle();
      pending[1].fail(new Error("database went away"));
      await expect(second).rejects.toThrow("database went away");
      const mine = heard.filter((m) => m.name === "test-batches");
      expect(mine.map((m) => ("durationMs" in m ? { ...m, durationMs: m.durationMs >= 0 } : m))).toEqual([
        { name: "test-batches", event: "queue", queued: 1 },
        { name: "test-batches", event: "queue", queued: 2 },
        { name: "test-batches", event: "start", batch: 1, size: 2, queued: 0 },
        { name: "test-batches", event: "queue", queued: 1 },
        { name: "test-batches", event: "end", batch: 1, size: 2, queued: 1, durationMs: true, error: undefined },
        { name: "test-batches", event: "start", batch: 2, size: 1, queued: 0 },
        { name: "test-batches", event: "end", batch: 2, size: 1, queued: 0, durationMs: true, error: new Error("database went away") },
      ]);
    } finally {
      diagnostics_channel.unsubscribe(BATCH_CHANNEL, listen);
    }
  });

  it("refuses a batch bound that is not a positive integer", () => {
    expect(() => new GroupCommit(async (items: number[]) => items, 0)).toThrow(RangeError);
  });
});
