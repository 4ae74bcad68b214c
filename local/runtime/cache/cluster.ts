// Our CacheCluster binding (Encore's runtimes/js/src/cache.rs over runtimes/core/src/cache/client.rs):
// each method sends the Redis commands Encore's client sends, with the write's expiry in the same
// transaction, and maps a missing value and a failed condition the way Encore's binding does.
import type { Napi } from "../../model/napi";
import type { Command, CommandRunner, Reply } from "./commands";
import { announced, channels } from "../core/events";

type Source = Napi.Request | null | undefined;

/** The expiry of a write: keep the key's TTL, set one (ms from now), or remove it (client.rs TtlOp). */
type TtlOp = { keep: true } | { ms: number } | { persist: true } | null;

/** The SDK's sentinels (storage/cache/keyspace.ts resolveTtl): -1 keep, -2 never expire, ≥ 0 ms. */
function ttlOp(ttlMs: number | null | undefined): TtlOp {
  if (ttlMs === undefined || ttlMs === null) return null;
  if (ttlMs === -1) return { keep: true };
  if (ttlMs === -2) return { persist: true };
  return ttlMs >= 0 ? { ms: ttlMs } : null;
}

/** The command that applies a TTL to a key after a write other than SET (PEXPIREAT or PERSIST). */
function expiryCommand(key: string, ttl: TtlOp): Command | null {
  if (ttl === null || "keep" in ttl) return null;
  if ("ms" in ttl) return ["PEXPIREAT", key, Date.now() + ttl.ms];
  return ["PERSIST", key];
}

/** SET's own expiry arguments for a TtlOp. */
function setExpiryArgs(ttl: TtlOp): (string | number)[] {
  if (ttl === null || "persist" in ttl) return [];
  return "keep" in ttl ? ["KEEPTTL"] : ["PX", ttl.ms];
}

/** Why an operation failed, worded as Encore's OpError: `cache <operation> "<key>": <reason>`. */
export class CacheOpError extends Error {
  constructor(operation: string, key: string, reason: string) {
    super(`cache ${operation} "${key}": ${reason}`);
    this.name = "CacheOpError";
  }
}

/** The cluster cannot be used at all (Encore fails when it creates the client, before any command). */
export class CacheClientError extends Error {}

const MISS = "cache miss";

/** The operations that only read: CacheCallStart's `write` is false for them (client.rs). */
const READS = new Set([
  "get",
  "multi get",
  "get range",
  "len",
  "list get",
  "items",
  "list len",
  "set contains",
  "set sample one",
  "set sample",
  "set sample with replacement",
  "set items",
  "set len",
  "set diff",
  "intersect",
  "union",
]);

/**
 * CacheCallEnd's result for a call that got a reply (one that failed is ERR, with its error): a nil
 * reply is Encore's Miss (NO_SUCH_KEY), but a refused SET NX its KeyExist (CONFLICT); LINSERT's -1, an
 * absent pivot, is a Miss too.
 */
function callResult(operation: string, reply: Reply): "ok" | "no_such_key" | "conflict" {
  if (reply === null) return operation === "set if not exists" ? "conflict" : "no_such_key";
  return operation.startsWith("insert ") && (reply as number) < 0 ? "no_such_key" : "ok";
}

const asBuffer = (r: Reply): Buffer => r as Buffer;
const asBuffers = (r: Reply): Buffer[] => r as Buffer[];
const asNumber = (r: Reply): number => r as number;

export class CacheCluster implements Napi.CacheCluster {
  constructor(
    private readonly runner: CommandRunner,
    /** Put in front of every key: `<cluster>/` as `encore run` does, plus a test run's own prefix. */
    readonly keyPrefix: string,
  ) {}

  private key(k: string): string {
    return this.keyPrefix + k;
  }

  /**
   * Runs commands (several in one transaction) as one traced cache call of the request `source`
   * (Encore's CacheCallStart/End: operation, keys, write, result); a failure names the operation and its keys.
   */
  private exec(source: Source, operation: string, keys: string[], commands: Command[]): Promise<Reply[]> {
    if (!channels.cache.hasSubscribers) return this.send(operation, keys, commands);
    return announced(
      channels.cache,
      source,
      "cache_call",
      () => ({ operation, keys, write: !READS.has(operation) }),
      () => this.send(operation, keys, commands),
      (replies) => ({
        fields: { result: callResult(operation, replies[0]) },
      }),
    );
  }

  private async send(operation: string, keys: string[], commands: Command[]): Promise<Reply[]> {
    try {
      return await this.runner.run(commands);
    } catch (err) {
      if (err instanceof CacheClientError) throw err;
      throw new CacheOpError(operation, keys.join(", "), `redis error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Runs `cmd`, then the expiry of `ttlKeys` in the same transaction, and returns cmd's reply. */
  private async query(source: Source, operation: string, keys: string[], cmd: Command, ttl: TtlOp = null, ttlKeys = keys): Promise<Reply> {
    const expiries = ttlKeys.map((k) => expiryCommand(k, ttl)).filter((c) => c !== null);
    const [reply] = await this.exec(source, operation, keys, [cmd, ...expiries]);
    return reply;
  }

  /** As query, but a nil reply fails with Encore's miss error (for operations that cannot miss quietly). */
  private async must(source: Source, operation: string, keys: string[], cmd: Command, ttl: TtlOp = null): Promise<Reply> {
    const reply = await this.query(source, operation, keys, cmd, ttl);
    if (reply === null) throw new CacheOpError(operation, keys.join(", "), MISS);
    return reply;
  }

  private async setWith(
    source: Source,
    operation: string,
    key: string,
    value: Buffer,
    ttlMs: number | null | undefined,
    cond: string[],
  ): Promise<Reply> {
    const k = this.key(key);
    return this.query(source, operation, [k], ["SET", k, value, ...cond, ...setExpiryArgs(ttlOp(ttlMs))]);
  }

  async get(key: string, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "get", [k], ["GET", k])) as Buffer | null;
  }
  async set(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<void> {
    await this.setWith(source, "set", key, value, ttlMs, []);
  }
  async setIfNotExists(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<boolean> {
    return (await this.setWith(source, "set if not exists", key, value, ttlMs, ["NX"])) !== null;
  }
  async replace(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<boolean> {
    return (await this.setWith(source, "replace", key, value, ttlMs, ["XX"])) !== null;
  }
  async getAndSet(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<Buffer | null> {
    return (await this.setWith(source, "get and set", key, value, ttlMs, ["GET"])) as Buffer | null;
  }
  async getAndDelete(key: string, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "get and delete", [k], ["GETDEL", k])) as Buffer | null;
  }
  async delete(keys: string[], source?: Source): Promise<number> {
    const ks = keys.map((k) => this.key(k));
    return asNumber(await this.must(source, "delete", ks, ["DEL", ...ks]));
  }
  async mget(keys: string[], source?: Source): Promise<(Buffer | null)[]> {
    const ks = keys.map((k) => this.key(k));
    return (await this.must(source, "multi get", ks, ["MGET", ...ks])) as (Buffer | null)[];
  }
  async mset(keys: string[], values: Buffer[], ttlMs?: number | null, source?: Source): Promise<void> {
    if (keys.length !== values.length) throw new Error("keys and values must have the same length");
    if (keys.length === 0) return;
    const ks = keys.map((k) => this.key(k));
    const ttl = ttlOp(ttlMs);
    const expiry = setExpiryArgs(ttl);
    if (expiry.length === 0) {
      await this.must(source, "multi set", ks, ["MSET", ...ks.flatMap((k, i) => [k, values[i]])]);
      return;
    }
    // MSET cannot carry a TTL, so each key is SET with it, all in one transaction (as Encore does).
    await this.exec(
      source,
      "multi set",
      ks,
      ks.map((k, i): Command => ["SET", k, values[i], ...expiry]),
    );
  }
  async append(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "append", [k], ["APPEND", k, value], ttlOp(ttlMs)));
  }
  async getRange(key: string, start: number, end: number, source?: Source): Promise<Buffer> {
    const k = this.key(key);
    return asBuffer(await this.must(source, "get range", [k], ["GETRANGE", k, start, end]));
  }
  async setRange(key: string, offset: number, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "set range", [k], ["SETRANGE", k, offset, value], ttlOp(ttlMs)));
  }
  async strlen(key: string, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "len", [k], ["STRLEN", k]));
  }
  async incrBy(key: string, delta: number, ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "increment", [k], ["INCRBY", k, delta], ttlOp(ttlMs)));
  }
  async decrBy(key: string, delta: number, ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "decrement", [k], ["INCRBY", k, -delta], ttlOp(ttlMs)));
  }
  async incrByFloat(key: string, delta: number, ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return Number(asBuffer(await this.must(source, "increment", [k], ["INCRBYFLOAT", k, delta], ttlOp(ttlMs))).toString());
  }
  async lpush(key: string, values: Buffer[], ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "push left", [k], ["LPUSH", k, ...values], ttlOp(ttlMs)));
  }
  async rpush(key: string, values: Buffer[], ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "push right", [k], ["RPUSH", k, ...values], ttlOp(ttlMs)));
  }
  async lpop(key: string, ttlMs?: number | null, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "pop left", [k], ["LPOP", k], ttlOp(ttlMs))) as Buffer | null;
  }
  async rpop(key: string, ttlMs?: number | null, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "pop right", [k], ["RPOP", k], ttlOp(ttlMs))) as Buffer | null;
  }
  async lindex(key: string, index: number, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "list get", [k], ["LINDEX", k, index])) as Buffer | null;
  }
  async lrange(key: string, start: number, stop: number, source?: Source): Promise<Buffer[]> {
    const k = this.key(key);
    return asBuffers(await this.must(source, "get range", [k], ["LRANGE", k, start, stop]));
  }
  async lrangeAll(key: string, source?: Source): Promise<Buffer[]> {
    const k = this.key(key);
    return asBuffers(await this.must(source, "items", [k], ["LRANGE", k, 0, -1]));
  }
  async llen(key: string, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "list len", [k], ["LLEN", k]));
  }
  // Encore's client ignores the TTL of LTRIM and LSET (client.rs `_ttl`).
  async ltrim(key: string, start: number, stop: number, _ttlMs?: number | null, source?: Source): Promise<void> {
    const k = this.key(key);
    await this.must(source, "list trim", [k], ["LTRIM", k, start, stop]);
  }
  async lset(key: string, index: number, value: Buffer, _ttlMs?: number | null, source?: Source): Promise<void> {
    const k = this.key(key);
    await this.must(source, "list set", [k], ["LSET", k, index, value]);
  }
  private async linsert(
    source: Source,
    operation: string,
    where: string,
    key: string,
    pivot: Buffer,
    value: Buffer,
    ttlMs?: number | null,
  ): Promise<number> {
    const k = this.key(key);
    const n = asNumber(await this.must(source, operation, [k], ["LINSERT", k, where, pivot, value], ttlOp(ttlMs)));
    // -1: the pivot is not in the list, which Encore reports as a miss.
    if (n < 0) throw new CacheOpError(operation, k, MISS);
    return n;
  }
  async linsertBefore(key: string, pivot: Buffer, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    return this.linsert(source, "insert before", "BEFORE", key, pivot, value, ttlMs);
  }
  async linsertAfter(key: string, pivot: Buffer, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    return this.linsert(source, "insert after", "AFTER", key, pivot, value, ttlMs);
  }
  private async lrem(source: Source, operation: string, count: number, key: string, value: Buffer, ttlMs?: number | null): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, operation, [k], ["LREM", k, count, value], ttlOp(ttlMs)));
  }
  async lremAll(key: string, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    return this.lrem(source, "remove all", 0, key, value, ttlMs);
  }
  async lremFirst(key: string, count: number, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    return count === 0 ? 0 : this.lrem(source, "remove first", count, key, value, ttlMs);
  }
  async lremLast(key: string, count: number, value: Buffer, ttlMs?: number | null, source?: Source): Promise<number> {
    return count === 0 ? 0 : this.lrem(source, "remove last", -count, key, value, ttlMs);
  }
  async lmove(src: string, dst: string, srcDir: string, dstDir: string, ttlMs?: number | null, source?: Source): Promise<Buffer | null> {
    const dir = (d: string, what: string): string => {
      if (d !== "left" && d !== "right") throw new Error(`invalid ${what} direction`);
      return d.toUpperCase();
    };
    const [s, d] = [this.key(src), this.key(dst)];
    const cmd: Command = ["LMOVE", s, d, dir(srcDir, "source"), dir(dstDir, "destination")];
    return (await this.query(source, "list move", [s, d], cmd, ttlOp(ttlMs))) as Buffer | null;
  }
  async sadd(key: string, members: Buffer[], ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "set add", [k], ["SADD", k, ...members], ttlOp(ttlMs)));
  }
  async srem(key: string, members: Buffer[], ttlMs?: number | null, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "set remove", [k], ["SREM", k, ...members], ttlOp(ttlMs)));
  }
  async sismember(key: string, member: Buffer, source?: Source): Promise<boolean> {
    const k = this.key(key);
    return asNumber(await this.must(source, "set contains", [k], ["SISMEMBER", k, member])) === 1;
  }
  async smembers(key: string, source?: Source): Promise<Buffer[]> {
    const k = this.key(key);
    return asBuffers(await this.must(source, "set items", [k], ["SMEMBERS", k]));
  }
  async scard(key: string, source?: Source): Promise<number> {
    const k = this.key(key);
    return asNumber(await this.must(source, "set len", [k], ["SCARD", k]));
  }
  async spop(key: string, ttlMs?: number | null, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "set pop one", [k], ["SPOP", k], ttlOp(ttlMs))) as Buffer | null;
  }
  async spopN(key: string, count: number, ttlMs?: number | null, source?: Source): Promise<Buffer[]> {
    const k = this.key(key);
    return asBuffers(await this.must(source, "set pop", [k], ["SPOP", k, count], ttlOp(ttlMs)));
  }
  async srandmember(key: string, source?: Source): Promise<Buffer | null> {
    const k = this.key(key);
    return (await this.query(source, "set sample one", [k], ["SRANDMEMBER", k])) as Buffer | null;
  }
  async srandmemberN(key: string, count: number, source?: Source): Promise<Buffer[]> {
    const k = this.key(key);
    const operation = count < 0 ? "set sample with replacement" : "set sample";
    return asBuffers(await this.must(source, operation, [k], ["SRANDMEMBER", k, count]));
  }
  private async setOp(source: Source, operation: string, name: string, keys: string[]): Promise<Buffer[]> {
    const ks = keys.map((k) => this.key(k));
    return asBuffers(await this.must(source, operation, ks, [name, ...ks]));
  }
  private async setOpStore(
    source: Source,
    operation: string,
    name: string,
    destination: string,
    keys: string[],
    ttlMs?: number | null,
  ): Promise<number> {
    const dest = this.key(destination);
    const ks = keys.map((k) => this.key(k));
    // Only the destination gets the TTL.
    return asNumber(await this.query(source, operation, [dest, ...ks], [name, dest, ...ks], ttlOp(ttlMs), [dest]));
  }
  async sdiff(keys: string[], source?: Source): Promise<Buffer[]> {
    return this.setOp(source, "set diff", "SDIFF", keys);
  }
  async sdiffstore(destination: string, keys: string[], ttlMs?: number | null, source?: Source): Promise<number> {
    return this.setOpStore(source, "store set diff", "SDIFFSTORE", destination, keys, ttlMs);
  }
  async sinter(keys: string[], source?: Source): Promise<Buffer[]> {
    return this.setOp(source, "intersect", "SINTER", keys);
  }
  async sinterstore(destination: string, keys: string[], ttlMs?: number | null, source?: Source): Promise<number> {
    return this.setOpStore(source, "store set intersect", "SINTERSTORE", destination, keys, ttlMs);
  }
  async sunion(keys: string[], source?: Source): Promise<Buffer[]> {
    return this.setOp(source, "union", "SUNION", keys);
  }
  async sunionstore(destination: string, keys: string[], ttlMs?: number | null, source?: Source): Promise<number> {
    return this.setOpStore(source, "store set union", "SUNIONSTORE", destination, keys, ttlMs);
  }
  async smove(src: string, dst: string, member: Buffer, ttlMs?: number | null, source?: Source): Promise<boolean> {
    const [s, d] = [this.key(src), this.key(dst)];
    return asNumber(await this.must(source, "move", [s, d], ["SMOVE", s, d, member], ttlOp(ttlMs))) === 1;
  }
}
