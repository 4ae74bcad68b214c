// The runtime's announcements: without a listener an operation runs alone, with nothing built; with
// one, its recorder hears the end, the error, or the outcome read from the result.
import dc from "node:diagnostics_channel";
import { describe, expect, it, vi } from "vitest";
import type { Napi } from "../../model/napi";
import { announced, type OperationAnnouncement } from "./events";

const source = {} as Napi.Request;

describe("announced operations", () => {
  it("run alone, building no fields, when no one listens", async () => {
    const channel = dc.channel("encore-local-test:quiet");
    const fields = vi.fn(() => ({ query: "SELECT 1" }));
    const result = Promise.resolve(7);
    expect(announced(channel, source, "db_query", fields, () => result)).toBe(result);
    expect(fields).not.toHaveBeenCalled();
  });

  it("reach a listener, whose recorder hears the outcome or the error", async () => {
    const channel = dc.channel("encore-local-test:heard");
    const finished: unknown[] = [];
    const listener = (m: unknown) => {
      const op = m as OperationAnnouncement;
      op.recorder = { id: 1, finish: (fields, error) => finished.push([op.kind, op.fields, fields, error]) };
    };
    channel.subscribe(listener);
    try {
      const rows = await announced(
        channel,
        source,
        "db_query",
        () => ({ query: "SELECT 1" }),
        async () => [1, 2],
        (r) => ({ fields: { rows: r.length } }),
      );
      expect(rows).toEqual([1, 2]);
      const failure = new Error("boom");
      await expect(
        announced(
          channel,
          source,
          "cache_call",
          () => ({ operation: "get" }),
          () => Promise.reject(failure),
        ),
      ).rejects.toBe(failure);
      // A call without a request to belong to is not announced.
      await announced(
        channel,
        null,
        "db_query",
        () => ({ query: "SELECT 2" }),
        async () => 0,
      );
      expect(finished).toEqual([
        ["db_query", { query: "SELECT 1" }, { rows: 2 }, undefined],
        ["cache_call", { operation: "get" }, null, failure],
      ]);
    } finally {
      channel.unsubscribe(listener);
    }
  });
});
