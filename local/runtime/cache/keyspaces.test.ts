// Every keyspace operation of encore.dev/storage/cache, through the SDK's own classes, on the
// in-process store and (with REDIS_URL) on Redis: values, misses, the error classes and expiry.
import { afterAll, describe, expect, it } from "vitest";
import {
  CacheKeyExists,
  CacheMiss,
  FloatKeyspace,
  IntKeyspace,
  NumberListKeyspace,
  NumberSetKeyspace,
  StringKeyspace,
  StringListKeyspace,
  StringSetKeyspace,
  StructKeyspace,
  expireDailyAt,
  expireIn,
  expireInHours,
  expireInMinutes,
  expireInSeconds,
  keepTTL,
  neverExpire,
} from "encore.dev/storage/cache";
import { testBackends } from "./testkit";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sorted = <T>(xs: T[]) => [...xs].sort();

interface Profile {
  name: string;
  tags: string[];
}

for (const backend of testBackends()) {
  describe(`cache keyspaces on the ${backend.name}`, () => {
    afterAll(() => backend.cleanup());
    const { sdk: cluster, prefix } = backend.cluster("kv");
    /** Milliseconds left on a keyspace key, -1 for none, -2 when missing (PTTL). */
    const pttl = async (key: string) => (await backend.run(["PTTL", prefix + key]))[0] as number;

    describe("StringKeyspace", () => {
      const ks = new StringKeyspace<string>(cluster, { keyPattern: "str/:key" });

      it("gets what was set and undefined on a miss", async () => {
        expect(await ks.get("none")).toBeUndefined();
        await ks.set("a", "héllo");
        expect(await ks.get("a")).toBe("héllo");
        expect(await ks.multiGet("a", "none")).toEqual(["héllo", undefined]);
      });

      it("setIfNotExists throws CacheKeyExists on an existing key, replace throws CacheMiss on a missing one", async () => {
        await ks.setIfNotExists("nx", "first");
        const exists = await ks.setIfNotExists("nx", "second").catch((e: unknown) => e);
        expect(exists).toBeInstanceOf(CacheKeyExists);
        expect((exists as Error).message).toBe(`cache key "str/nx" already exists`);
        expect(await ks.get("nx")).toBe("first");
        const miss = await ks.replace("missing", "x").catch((e: unknown) => e);
        expect(miss).toBeInstanceOf(CacheMiss);
        expect((miss as Error).message).toBe(`cache key "str/missing" not found`);
        expect(await ks.get("missing")).toBeUndefined();
        await ks.replace("nx", "replaced");
        expect(await ks.get("nx")).toBe("replaced");
      });

      it("getAndSet, getAndDelete, multiSet and delete", async () => {
        expect(await ks.getAndSet("gs", "one")).toBeUndefined();
        expect(await ks.getAndSet("gs", "two")).toBe("one");
        expect(await ks.getAndDelete("gs")).toBe("two");
        expect(await ks.getAndDelete("gs")).toBeUndefined();
        await ks.multiSet([
          ["m1", "x"],
          ["m2", "y"],
        ]);
        expect(await ks.multiGet("m1", "m2")).toEqual(["x", "y"]);
        expect(await ks.delete("m1", "m2", "never-set")).toBe(2);
        expect(await ks.get("m1")).toBeUndefined();
      });

      it("append, getRange, setRange and len, as Redis counts bytes", async () => {
        expect(await ks.append("s", "Hello")).toBe(5);
        expect(await ks.append("s", " World")).toBe(11);
        expect(await ks.getRange("s", 0, 4)).toBe("Hello");
        expect(await ks.getRange("s", -5, -1)).toBe("World");
        expect(await ks.getRange("missing", 0, -1)).toBe("");
        expect(await ks.setRange("s", 6, "Redis")).toBe(11);
        expect(await ks.get("s")).toBe("Hello Redis");
        expect(await ks.setRange("pad", 2, "x")).toBe(3);
        expect(await ks.get("pad")).toBe("\0\0x");
        expect(await ks.len("s")).toBe(11);
        expect(await ks.len("missing")).toBe(0);
      });

      it("escapes slashes in keys and refuses the reserved __encore prefix", async () => {
        const raw = new StringKeyspace<string>(cluster, { keyPattern: ":key" });
        await ks.set("a/b", "slashed");
        expect((await backend.run(["GET", `${prefix}str/a\\/b`]))[0]?.toString()).toBe("slashed");
        await expect(raw.set("__encore/x", "v")).rejects.toThrow('use of reserved key prefix "__encore"');
      });

      it("fails an operation on a key of another type with the operation and key in the message", async () => {
        const list = new StringListKeyspace<string>(cluster, { keyPattern: "str/:key" });
        await list.pushLeft("typed", "x");
        await expect(ks.append("typed", "y")).rejects.toThrow(`cache append "${prefix}str/typed": redis error: WRONGTYPE`);
      });
    });

    describe("IntKeyspace and FloatKeyspace", () => {
      const ints = new IntKeyspace<{ user: string; day: number }>(cluster, { keyPattern: "int/:user/:day" });
      const floats = new FloatKeyspace<string>(cluster, { keyPattern: "float/:key" });

      it("increments from nothing and decrements, flooring values as the SDK does", async () => {
        const key = { user: "u1", day: 3 };
        expect(await ints.increment(key)).toBe(1);
        expect(await ints.increment(key, 5)).toBe(6);
        expect(await ints.decrement(key, 2)).toBe(4);
        expect(await ints.get(key)).toBe(4);
        await ints.set({ user: "u2", day: 1 }, 7.9);
        expect(await ints.get({ user: "u2", day: 1 })).toBe(7);
        expect((await backend.run(["GET", `${prefix}int/u1/3`]))[0]?.toString()).toBe("4");
      });

      it("refuses to increment a value that is not an integer", async () => {
        await floats.set("half", 0.5);
        const asInt = new IntKeyspace<string>(cluster, { keyPattern: "float/:key" });
        await expect(asInt.increment("half")).rejects.toThrow(/^cache increment ".*float\/half": redis error: .*not an integer/);
      });

      it("adds and subtracts floats", async () => {
        expect(await floats.increment("f", 1.5)).toBe(1.5);
        expect(await floats.decrement("f", 0.25)).toBe(1.25);
        expect(await floats.get("f")).toBe(1.25);
      });

      it("counts concurrent increments exactly", async () => {
        await Promise.all(Array.from({ length: 50 }, () => ints.increment({ user: "race", day: 0 })));
        expect(await ints.get({ user: "race", day: 0 })).toBe(50);
      });
    });

    describe("StructKeyspace", () => {
      const profiles = new StructKeyspace<{ id: string }, Profile>(cluster, { keyPattern: "profile/:id" });

      it("stores objects as JSON", async () => {
        await profiles.set({ id: "p1" }, { name: "Ada", tags: ["x", "y"] });
        expect(await profiles.get({ id: "p1" })).toEqual({ name: "Ada", tags: ["x", "y"] });
        expect((await backend.run(["GET", `${prefix}profile/p1`]))[0]?.toString()).toBe('{"name":"Ada","tags":["x","y"]}');
        expect(await profiles.get({ id: "none" })).toBeUndefined();
      });
    });

    describe("StringListKeyspace and NumberListKeyspace", () => {
      const list = new StringListKeyspace<string>(cluster, { keyPattern: "list/:key" });
      const nums = new NumberListKeyspace<string>(cluster, { keyPattern: "nums/:key" });

      it("pushes and pops at both ends", async () => {
        expect(await list.pushRight("l", "b", "c")).toBe(2);
        expect(await list.pushLeft("l", "a0", "a")).toBe(4);
        expect(await list.items("l")).toEqual(["a", "a0", "b", "c"]);
        expect(await list.popLeft("l")).toBe("a");
        expect(await list.popRight("l")).toBe("c");
        expect(await list.len("l")).toBe(2);
        expect(await list.popLeft("empty")).toBeUndefined();
      });

      it("gets, sets, ranges and trims by index", async () => {
        await list.pushRight("r", "0", "1", "2", "3", "4");
        expect(await list.get("r", 1)).toBe("1");
        expect(await list.get("r", -1)).toBe("4");
        expect(await list.get("r", 9)).toBeUndefined();
        await list.set("r", 0, "zero");
        expect(await list.getRange("r", 0, 1)).toEqual(["zero", "1"]);
        expect(await list.getRange("r", -2, -1)).toEqual(["3", "4"]);
        await list.trim("r", 1, 3);
        expect(await list.items("r")).toEqual(["1", "2", "3"]);
        await expect(list.set("r", 5, "x")).rejects.toThrow(/^cache list set ".*list\/r": redis error: ERR index out of range/);
        await expect(list.set("absent", 0, "x")).rejects.toThrow(/redis error: ERR no such key/);
      });

      it("inserts around a pivot and reports a missing pivot as a miss", async () => {
        await list.pushRight("i", "a", "c");
        expect(await list.insertBefore("i", "c", "b")).toBe(3);
        expect(await list.insertAfter("i", "c", "d")).toBe(4);
        expect(await list.items("i")).toEqual(["a", "b", "c", "d"]);
        await expect(list.insertAfter("i", "zz", "x")).rejects.toThrow(/^cache insert after ".*list\/i": cache miss$/);
        expect(await list.insertBefore("no-list", "a", "x")).toBe(0);
      });

      it("removes all, the first or the last occurrences", async () => {
        await list.pushRight("rm", "x", "a", "x", "b", "x", "x");
        expect(await list.removeFirst("rm", 1, "x")).toBe(1);
        expect(await list.items("rm")).toEqual(["a", "x", "b", "x", "x"]);
        expect(await list.removeLast("rm", 2, "x")).toBe(2);
        expect(await list.items("rm")).toEqual(["a", "x", "b"]);
        expect(await list.removeFirst("rm", 0, "x")).toBe(0);
        expect(await list.removeAll("rm", "x")).toBe(1);
        expect(await list.items("rm")).toEqual(["a", "b"]);
      });

      it("moves an element between lists", async () => {
        await list.pushRight("src", "1", "2");
        expect(await list.move("src", "dst", "left", "right")).toBe("1");
        expect(await list.move("src", "dst", "right", "left")).toBe("2");
        expect(await list.items("dst")).toEqual(["2", "1"]);
        expect(await list.len("src")).toBe(0);
        expect(await list.move("src", "dst", "left", "left")).toBeUndefined();
      });

      it("keeps numbers as numbers", async () => {
        await nums.pushRight("n", 1, 2.5, -3);
        expect(await nums.items("n")).toEqual([1, 2.5, -3]);
        expect(await nums.removeAll("n", 2.5)).toBe(1);
        expect(await nums.popLeft("n")).toBe(1);
      });
    });

    describe("StringSetKeyspace and NumberSetKeyspace", () => {
      const set = new StringSetKeyspace<string>(cluster, { keyPattern: "set/:key" });
      const nums = new NumberSetKeyspace<string>(cluster, { keyPattern: "nset/:key" });

      it("adds, removes, checks and counts members", async () => {
        expect(await set.add("s", "a", "b", "a")).toBe(2);
        expect(await set.add("s", "b", "c")).toBe(1);
        expect(await set.contains("s", "a")).toBe(true);
        expect(await set.contains("s", "z")).toBe(false);
        expect(await set.remove("s", "a", "z")).toBe(1);
        expect(await set.len("s")).toBe(2);
        expect(sorted(await set.items("s"))).toEqual(["b", "c"]);
        expect(await set.items("none")).toEqual([]);
      });

      it("pops and samples members", async () => {
        await set.add("p", "a", "b", "c");
        const one = await set.popOne("p");
        expect(["a", "b", "c"]).toContain(one);
        expect(await set.pop("p", 5)).toHaveLength(2);
        expect(await set.popOne("p")).toBeUndefined();
        expect(await set.pop("p", 2)).toEqual([]);
        await set.add("q", "a", "b", "c");
        expect(["a", "b", "c"]).toContain(await set.sampleOne("q"));
        expect(sorted(await set.sample("q", 3))).toEqual(["a", "b", "c"]);
        expect(sorted(await set.sample("q", 9))).toEqual(["a", "b", "c"]);
        expect(await set.sampleWithReplacement("q", 7)).toHaveLength(7);
        expect(await set.sampleOne("none")).toBeUndefined();
        expect(await set.sample("none", 2)).toEqual([]);
        expect(await set.len("q")).toBe(3);
      });

      it("computes and stores differences, intersections and unions", async () => {
        await set.add("x", "a", "b", "c");
        await set.add("y", "b", "c", "d");
        expect(sorted(await set.diff("x", "y"))).toEqual(["a"]);
        expect(sorted(await set.intersect("x", "y"))).toEqual(["b", "c"]);
        expect(sorted(await set.union("x", "y"))).toEqual(["a", "b", "c", "d"]);
        expect(await set.diffStore("d", "x", "y")).toBe(1);
        expect(await set.intersectStore("i", "x", "y")).toBe(2);
        expect(await set.unionStore("u", "x", "y")).toBe(4);
        expect(sorted(await set.items("i"))).toEqual(["b", "c"]);
        expect(await set.intersect("x", "none")).toEqual([]);
      });

      it("moves a member between sets", async () => {
        await set.add("from", "m");
        expect(await set.move("from", "to", "m")).toBe(true);
        expect(await set.move("from", "to", "m")).toBe(false);
        expect(await set.items("to")).toEqual(["m"]);
        expect(await set.len("from")).toBe(0);
      });

      it("keeps numbers as numbers", async () => {
        await nums.add("n", 1, 2, 2.5);
        expect(sorted(await nums.items("n"))).toEqual([1, 2, 2.5]);
        expect(await nums.contains("n", 2.5)).toBe(true);
      });
    });

    describe("expiry", () => {
      const plain = new StringKeyspace<string>(cluster, { keyPattern: "exp/:key" });
      const expiring = new StringKeyspace<string>(cluster, { keyPattern: "exp-default/:key", defaultExpiry: expireInSeconds(60) });
      const counters = new IntKeyspace<string>(cluster, { keyPattern: "exp-int/:key", defaultExpiry: expireInMinutes(2) });
      const list = new StringListKeyspace<string>(cluster, { keyPattern: "exp-list/:key", defaultExpiry: expireInHours(1) });

      it("gives no TTL without an expiry and the default expiry on every write", async () => {
        await plain.set("none", "v");
        expect(await pttl("exp/none")).toBe(-1);
        await expiring.set("d", "v");
        expect(await pttl("exp-default/d")).toBeGreaterThan(59_000);
        expect(await pttl("exp-default/d")).toBeLessThanOrEqual(60_000);
        await counters.increment("c");
        expect(await pttl("exp-int/c")).toBeGreaterThan(119_000);
        await list.pushRight("l", "x");
        expect(await pttl("exp-list/l")).toBeGreaterThan(3_599_000);
      });

      it("lets a write's own expiry and with() override the default", async () => {
        await expiring.set("own", "v", { expiry: expireIn(5_000) });
        expect(await pttl("exp-default/own")).toBeLessThanOrEqual(5_000);
        await expiring.with({ expiry: neverExpire }).set("never", "v");
        expect(await pttl("exp-default/never")).toBe(-1);
        await counters.increment("p");
        await counters.with({ expiry: neverExpire }).increment("p");
        expect(await pttl("exp-int/p")).toBe(-1);
      });

      it("keepTTL keeps the key's TTL; a plain write clears it", async () => {
        await plain.set("k", "v", { expiry: expireInSeconds(30) });
        await plain.set("k", "w", { expiry: keepTTL });
        expect(await pttl("exp/k")).toBeGreaterThan(29_000);
        await counters.increment("k2", 1, { expiry: expireInSeconds(30) });
        await counters.increment("k2", 1, { expiry: keepTTL });
        expect(await pttl("exp-int/k2")).toBeGreaterThan(29_000);
        await plain.set("k", "x");
        expect(await pttl("exp/k")).toBe(-1);
      });

      it("expireDailyAt expires at the next such UTC time", async () => {
        const now = new Date();
        const next = new Date(now);
        next.setUTCHours(now.getUTCHours(), now.getUTCMinutes() + 10, 0, 0);
        await plain.set("daily", "v", { expiry: expireDailyAt(next.getUTCHours(), next.getUTCMinutes(), 0) });
        const left = await pttl("exp/daily");
        expect(left).toBeGreaterThan(next.getTime() - Date.now() - 2_000);
        expect(left).toBeLessThanOrEqual(next.getTime() - now.getTime());
      });

      it("removes a key once its TTL has passed", async () => {
        await plain.set("short", "v", { expiry: expireIn(80) });
        await counters.increment("short", 1, { expiry: expireIn(80) });
        expect(await plain.get("short")).toBe("v");
        await sleep(200);
        expect(await plain.get("short")).toBeUndefined();
        expect(await counters.increment("short", 1, { expiry: expireIn(80) })).toBe(1);
      });

      it("multiSet applies one expiry to every key", async () => {
        await expiring.multiSet(
          [
            ["ma", "1"],
            ["mb", "2"],
          ],
          { expiry: expireInSeconds(10) },
        );
        expect(await pttl("exp-default/ma")).toBeLessThanOrEqual(10_000);
        expect(await pttl("exp-default/mb")).toBeGreaterThan(8_000);
      });
    });
  });
}
