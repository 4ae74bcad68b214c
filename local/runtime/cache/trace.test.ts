// Cache calls in the trace of the request that made them, as Encore's CacheCallStart/End: the
// operation, the prefixed keys, read or write, and the result (a miss, a refused SET NX, an error).
import { afterAll, describe, expect, it } from "vitest";
import type { Napi } from "../../model/napi";
import { tracer } from "../../devtools/trace";
import { CacheCluster } from "./cluster";
import { MemoryRunner } from "./memory";

describe("traced cache calls", () => {
  const runner = new MemoryRunner();
  afterAll(() => runner.close());
  const cluster = new CacheCluster(runner, "c/");
  const span = tracer.start({ traceId: "cache-trace", spanId: "cache-span" }, { kind: "request", service: "svc" })!;
  const source = { meta: () => ({ trace: { traceId: "cache-trace", spanId: "cache-span" } }) } as unknown as Napi.Request;
  const b = (s: string) => Buffer.from(s);
  /** The call events recorded since `from`, as [operation, keys, write, result, error]. */
  const calls = (from: number) =>
    span.record.events.slice(from).map((e) => [e.fields.operation, e.fields.keys, e.fields.write, e.fields.result, e.error?.message]);

  it("records reads, writes, misses and conflicts with the keys as sent", async () => {
    const from = span.record.events.length;
    expect(await cluster.get("a", source)).toBeNull();
    expect(await cluster.setIfNotExists("a", b("1"), null, source)).toBe(true);
    expect(await cluster.setIfNotExists("a", b("2"), null, source)).toBe(false);
    expect(await cluster.replace("none", b("x"), null, source)).toBe(false);
    await cluster.mget(["a", "none"], source);
    await cluster.rpush("l", [b("x")], null, source);
    await expect(cluster.linsertBefore("l", b("absent"), b("y"), null, source)).rejects.toThrow('cache insert before "c/l": cache miss');
    await cluster.sdiffstore("dest", ["s1", "s2"], 1000, source);
    expect(calls(from)).toEqual([
      ["get", ["c/a"], false, "no_such_key", undefined],
      ["set if not exists", ["c/a"], true, "ok", undefined],
      ["set if not exists", ["c/a"], true, "conflict", undefined],
      ["replace", ["c/none"], true, "no_such_key", undefined],
      ["multi get", ["c/a", "c/none"], false, "ok", undefined],
      ["push right", ["c/l"], true, "ok", undefined],
      ["insert before", ["c/l"], true, "no_such_key", undefined],
      ["store set diff", ["c/dest", "c/s1", "c/s2"], true, "ok", undefined],
    ]);
    expect(span.record.events.slice(from).every((e) => e.kind === "cache_call" && e.durationMs! >= 0)).toBe(true);
  });

  it("records a failed call with Encore's error and no result", async () => {
    const from = span.record.events.length;
    await expect(cluster.incrBy("l", 1, null, source)).rejects.toThrow(/^cache increment "c\/l": redis error: WRONGTYPE/);
    expect(calls(from)).toEqual([
      ["increment", ["c/l"], true, undefined, expect.stringMatching(/^cache increment "c\/l": redis error: WRONGTYPE/)],
    ]);
  });

  it("records nothing for a call outside a traced request", async () => {
    const from = span.record.events.length;
    await cluster.set("a", b("3"));
    expect(span.record.events.length).toBe(from);
  });
});
