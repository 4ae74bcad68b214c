// The in-process store: volatile and bounded like `encore run`'s miniredis, and (with REDIS_URL)
// answering edge cases exactly as a real Redis server does.
import crypto from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { UnconfiguredCluster } from "./";
import { CacheCluster } from "./cluster";
import type { Command, Reply } from "./commands";
import { MemoryRunner } from "./memory";
import { MAX_KEYS } from "./memory-keys";
import { RedisRunner } from "./redis";
import { skipUnless } from "../../testing";

describe("the in-process cache store", () => {
  it("keeps at most 100 keys after a prune, dropping expired ones before live ones", async () => {
    let now = 1_000_000;
    const runner = new MemoryRunner(() => now);
    for (let i = 0; i < 150; i++) await runner.run([["SET", `k${i}`, "v"]]);
    runner.store.prune();
    expect(runner.store.size).toBe(MAX_KEYS);
    const survivors = runner.store.keys().sort();
    for (let i = 0; i < 5; i++) await runner.run([["SET", `late${i}`, "v", "PX", 10]]);
    now += 20;
    runner.store.prune();
    expect(runner.store.keys().sort()).toEqual(survivors);
    await runner.close();
  });

  it("runs every command of a transaction even when one fails, and reports the failure", async () => {
    const runner = new MemoryRunner();
    await runner.run([["SET", "text", "abc"]]);
    await expect(
      runner.run([
        ["INCRBY", "text", 1],
        ["PEXPIREAT", "text", Date.now() + 60_000],
      ]),
    ).rejects.toThrow("ERR value is not an integer or out of range");
    expect((await runner.run([["PTTL", "text"]]))[0]).toBeGreaterThan(59_000);
    await runner.close();
  });
});

describe("a cluster the app does not declare", () => {
  it("fails every operation as encore run does", async () => {
    const cluster = new CacheCluster(new UnconfiguredCluster(), "typo/");
    await expect(cluster.get("k")).rejects.toThrow(
      /^failed to create cache client: cache: this service is not configured to use this cache cluster$/,
    );
    await expect(cluster.incrBy("k", 1)).rejects.toThrow("not configured");
  });
});

/** Command scripts whose every reply (or error) must be the same on both stores. */
const SCRIPTS: Record<string, Command[]> = {
  strings: [
    ["SET", "s", "hello"],
    ["SET", "s", "x", "NX"],
    ["SET", "s", "y", "XX", "GET"],
    ["SET", "none", "z", "XX"],
    ["GETRANGE", "s", 0, -100],
    ["GETRANGE", "s", -100, 100],
    ["GETRANGE", "s", 3, 1],
    ["SETRANGE", "s", 3, "abc"],
    ["GET", "s"],
    ["SETRANGE", "empty", 0, ""],
    ["STRLEN", "empty"],
    ["APPEND", "s", "!"],
    ["GETDEL", "s"],
    ["GET", "s"],
    ["SET", "n", "9223372036854775806"],
    ["INCRBY", "n", 1],
    ["INCRBY", "n", 1],
    ["SET", "f", "1.5"],
    ["INCRBYFLOAT", "f", "2"],
    ["SET", "pad", "007"],
    ["INCRBY", "pad", 1],
    ["SET", "bad", "x", "PX", 0],
    ["MGET", "f", "missing"],
    ["DEL", "f", "n", "none"],
  ],
  lists: [
    ["RPUSH", "l", "a", "b", "c", "d"],
    ["LPUSH", "l", "z", "y"],
    ["LRANGE", "l", 0, -1],
    ["LRANGE", "l", -100, 1],
    ["LRANGE", "l", 4, 2],
    ["LRANGE", "l", 2, 100],
    ["LINDEX", "l", -1],
    ["LINDEX", "l", 99],
    ["LTRIM", "l", 1, -2],
    ["LRANGE", "l", 0, -1],
    ["LINSERT", "l", "BEFORE", "b", "x"],
    ["LINSERT", "l", "AFTER", "nope", "x"],
    ["RPUSH", "l", "x", "x"],
    ["LREM", "l", -2, "x"],
    ["LRANGE", "l", 0, -1],
    ["LMOVE", "l", "l", "LEFT", "RIGHT"],
    ["LRANGE", "l", 0, -1],
    ["LSET", "l", 10, "q"],
    ["LTRIM", "l", 5, 1],
    ["LLEN", "l"],
    ["LPOP", "l"],
    ["SET", "str", "v"],
    ["LPUSH", "str", "x"],
  ],
  sets: [
    ["SADD", "a", "1", "2", "3"],
    ["SADD", "b", "2", "3", "4"],
    ["SINTERSTORE", "c", "a", "b"],
    ["SCARD", "c"],
    ["SDIFFSTORE", "c", "a", "a"],
    ["SCARD", "c"],
    ["SMOVE", "a", "b", "1"],
    ["SMOVE", "a", "b", "1"],
    ["SISMEMBER", "b", "1"],
    ["SREM", "a", "2", "3"],
    ["SCARD", "a"],
    ["SPOP", "a", 3],
    ["SRANDMEMBER", "a", 2],
    ["SPOP", "b", -1],
  ],
};

describe("the in-process store against Redis", () => {
  const redisUrl = process.env.REDIS_URL;
  skipUnless(redisUrl, "needs a Redis server: set REDIS_URL");
  // Connects on the first command, which only a test run with REDIS_URL sends.
  const redis = new RedisRunner(redisUrl ?? "redis://127.0.0.1:6379");
  const prefix = `test-parity-${crypto.randomBytes(4).toString("hex")}/`;
  afterAll(async () => {
    if (!redisUrl) return;
    await redis.deleteKeysWithPrefix(prefix);
    await redis.close();
  });

  /** Runs a script command by command, prefixing keys on Redis, and records replies and errors. */
  async function play(run: (c: Command) => Promise<Reply[]>, script: Command[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const cmd of script) {
      out.push(
        await run(cmd).then(
          ([r]) => normalize(r),
          (e: Error) => `error: ${e.message}`,
        ),
      );
    }
    return out;
  }

  for (const [name, script] of Object.entries(SCRIPTS)) {
    it(`answers the ${name} script as Redis does`, async () => {
      const memory = new MemoryRunner();
      const keyed = (cmd: Command): Command => withPrefix(cmd, `${prefix}${name}/`);
      const expected = await play((c) => redis.run([keyed(c)]), script);
      const actual = await play((c) => memory.run([c]), script);
      expect(actual).toEqual(expected.map((r) => (typeof r === "string" ? r.replaceAll(`${prefix}${name}/`, "") : r)));
      await memory.close();
    });
  }
});

/** Replies in a comparable form: buffers as strings. */
function normalize(r: Reply): unknown {
  if (Buffer.isBuffer(r)) return r.toString();
  if (Array.isArray(r)) return r.map(normalize);
  return r;
}

/** Prefixes the key arguments of the commands the scripts use. */
function withPrefix([name, ...args]: Command, prefix: string): Command {
  const keyCount: Record<string, number> = { MGET: args.length, DEL: args.length, LMOVE: 2, SMOVE: 2, SINTERSTORE: 3, SDIFFSTORE: 3 };
  const n = keyCount[name] ?? 1;
  return [name, ...args.map((a, i) => (i < n ? `${prefix}${String(a)}` : a))];
}
