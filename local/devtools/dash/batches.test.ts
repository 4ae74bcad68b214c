// The dashboard's view of the batches the app announces on the `group-commit` diagnostics channel:
// queued items, the batch in flight, and the last batches, committed or failed with their error.
import { afterAll, describe, expect, it } from "vitest";
import { GroupCommit } from "../../../lib/group-commit";
import { BatchWatch } from "./batches";

describe("BatchWatch", () => {
  const watch = new BatchWatch();
  afterAll(() => watch.close());
  const queue = (name: string) => watch.state().find((q) => q.name === name);

  it("shows what is queued and in flight while a batch is written, then the batch committed or failed", async () => {
    const writes: { finish: () => void; fail: (e: Error) => void }[] = [];
    const commit = new GroupCommit(
      (items: number[]) => new Promise<number[]>((resolve, reject) => writes.push({ finish: () => resolve(items), fail: reject })),
      10,
      "watched",
    );
    let updates = 0;
    const stop = watch.listen(() => updates++);
    const first = [commit.submit(1), commit.submit(2)];
    expect(queue("watched")).toMatchObject({ queued: 2, inFlight: null, recent: [] });
    await new Promise((r) => setImmediate(r));
    const second = commit.submit(3);
    expect(queue("watched")).toMatchObject({ queued: 1, inFlight: { batch: 1, size: 2, state: "in flight" } });

    writes[0].finish();
    await Promise.all(first);
    await new Promise((r) => setImmediate(r));
    writes[1].fail(new Error("deadlock detected"));
    await expect(second).rejects.toThrow("deadlock detected");
    expect(queue("watched")).toMatchObject({
      queued: 0,
      inFlight: null,
      recent: [
        { batch: 2, size: 1, state: "failed", error: { message: "deadlock detected" } },
        { batch: 1, size: 2, state: "committed" },
      ],
    });
    expect(queue("watched")!.recent[0].durationMs).toBeGreaterThanOrEqual(0);
    await new Promise((r) => setTimeout(r, 150));
    expect(updates).toBeGreaterThan(0);
    expect(updates).toBeLessThan(8); // changes within 100 ms make one live update
    stop();
  });
});
