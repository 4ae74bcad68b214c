// The in-process cache store: the Redis commands Encore's cache client sends, with Redis's replies
// and errors, over a KeyStore. It stands in for the miniredis `encore run` and `encore test` start,
// and is as volatile: nothing survives the process, and it keeps at most 100 keys (memory-keys.ts).
import { randomInt } from "node:crypto";
import { type Command, type CommandRunner, type RedisArg, type Reply, RedisReplyError } from "./commands";
import { KeyStore, PRUNE_INTERVAL_MS, WRONGTYPE } from "./memory-keys";

const OK = Buffer.from("OK");
const INT64_MAX = 9223372036854775807n;

const buf = (a: RedisArg): Buffer => (Buffer.isBuffer(a) ? a : Buffer.from(String(a)));
const str = (a: RedisArg): string => buf(a).toString();
const member = (b: Buffer): string => b.toString("latin1");

function int(a: RedisArg): number {
  const s = str(a);
  if (!/^-?\d+$/.test(s)) throw new RedisReplyError("ERR value is not an integer or out of range");
  return Number(s);
}

/** A list range as LRANGE/LTRIM/GETRANGE resolve it: [from, to) within length, possibly empty. */
function span(start: number, stop: number, length: number): [number, number] {
  if (start < 0) start = Math.max(0, start + length);
  if (stop < 0) stop += length;
  stop = Math.min(stop, length - 1);
  return start > stop || start >= length ? [0, 0] : [start, stop + 1];
}

type Handler = (store: KeyStore, args: RedisArg[], now: number) => Reply;

function stringValue(store: KeyStore, key: RedisArg): Buffer | undefined {
  return store.typed(str(key), "string")?.value;
}

function listValue(store: KeyStore, key: RedisArg): Buffer[] | undefined {
  return store.typed(str(key), "list")?.value;
}

function setValue(store: KeyStore, key: RedisArg): Map<string, Buffer> | undefined {
  return store.typed(str(key), "set")?.value;
}

/** The existing list at key, or a new empty one stored there. */
function listFor(store: KeyStore, key: RedisArg): Buffer[] {
  const list = listValue(store, key);
  if (list !== undefined) return list;
  const value: Buffer[] = [];
  store.put(str(key), { kind: "list", value }, null);
  return value;
}

function setFor(store: KeyStore, key: RedisArg): Map<string, Buffer> {
  const set = setValue(store, key);
  if (set !== undefined) return set;
  const value = new Map<string, Buffer>();
  store.put(str(key), { kind: "set", value }, null);
  return value;
}

/** SET key value [NX|XX] [GET] [PX ms|KEEPTTL]. */
function set(store: KeyStore, [key, value, ...opts]: RedisArg[], now: number): Reply {
  const k = str(key);
  const flags = opts.map((o) => (typeof o === "number" ? o : str(o).toUpperCase()));
  const old = store.get(k);
  if (flags.includes("GET") && old !== undefined && old.kind !== "string") throw new RedisReplyError(WRONGTYPE);
  const reply = flags.includes("GET") ? ((old?.value as Buffer | undefined) ?? null) : OK;
  if ((flags.includes("NX") && old !== undefined) || (flags.includes("XX") && old === undefined)) {
    return flags.includes("GET") ? reply : null;
  }
  let expiresAt: number | null = null;
  const px = flags.indexOf("PX");
  if (px >= 0) {
    const ms = int(opts[px + 1]);
    if (ms <= 0) throw new RedisReplyError("ERR invalid expire time in 'set' command");
    expiresAt = now + ms;
  } else if (flags.includes("KEEPTTL")) {
    expiresAt = old?.expiresAt ?? null;
  }
  store.put(k, { kind: "string", value: Buffer.from(buf(value)) }, expiresAt);
  return reply;
}

function incrBy(store: KeyStore, [key, delta]: RedisArg[]): Reply {
  const e = store.typed(str(key), "string");
  const current = e === undefined ? "0" : e.value.toString();
  if (!/^(0|-?[1-9]\d*)$/.test(current) || BigInt(current) > INT64_MAX || BigInt(current) < -INT64_MAX - 1n) {
    throw new RedisReplyError("ERR value is not an integer or out of range");
  }
  const next = BigInt(current) + BigInt(int(delta));
  if (next > INT64_MAX || next < -INT64_MAX - 1n) throw new RedisReplyError("ERR increment or decrement would overflow");
  const value = Buffer.from(next.toString());
  if (e === undefined) store.put(str(key), { kind: "string", value }, null);
  else e.value = value;
  return Number(next);
}

function incrByFloat(store: KeyStore, [key, delta]: RedisArg[]): Reply {
  const e = store.typed(str(key), "string");
  const current = e === undefined ? 0 : Number(e.value.toString());
  if (e !== undefined && (e.value.length === 0 || !Number.isFinite(current))) throw new RedisReplyError("ERR value is not a valid float");
  const next = current + Number(str(delta));
  if (!Number.isFinite(next)) throw new RedisReplyError("ERR increment would produce NaN or Infinity");
  const value = Buffer.from(String(next));
  if (e === undefined) store.put(str(key), { kind: "string", value }, null);
  else e.value = value;
  return value;
}

function push(side: "left" | "right"): Handler {
  return (store, [key, ...values]) => {
    const list = listFor(store, key);
    for (const v of values) {
      if (side === "left") list.unshift(Buffer.from(buf(v)));
      else list.push(Buffer.from(buf(v)));
    }
    return list.length;
  };
}

function pop(side: "left" | "right"): Handler {
  return (store, [key]) => {
    const list = listValue(store, key);
    if (list === undefined) return null;
    const v = side === "left" ? list.shift() : list.pop();
    store.dropIfEmpty(str(key));
    return v ?? null;
  };
}

/** Elements of a set's value, for SDIFF/SINTER/SUNION (a missing key is an empty set). */
function sets(store: KeyStore, keys: RedisArg[]): Map<string, Buffer>[] {
  return keys.map((k) => setValue(store, k) ?? new Map());
}

const combine = {
  diff: ([first, ...rest]: Map<string, Buffer>[]) => new Map([...first].filter(([m]) => rest.every((s) => !s.has(m)))),
  inter: ([first, ...rest]: Map<string, Buffer>[]) => new Map([...first].filter(([m]) => rest.every((s) => s.has(m)))),
  union: (all: Map<string, Buffer>[]) => new Map(all.flatMap((s) => [...s])),
};

function setOp(op: keyof typeof combine): Handler {
  return (store, keys) => [...combine[op](sets(store, keys)).values()];
}

function setOpStore(op: keyof typeof combine): Handler {
  return (store, [dest, ...keys]) => {
    const result = combine[op](sets(store, keys));
    store.delete(str(dest));
    if (result.size > 0) store.put(str(dest), { kind: "set", value: result }, null);
    return result.size;
  };
}

/** Random distinct members (count ≥ 0) or |count| members with repeats (count < 0), as SRANDMEMBER. */
function sample(members: Buffer[], count: number): Buffer[] {
  if (count < 0) return Array.from({ length: -count }, () => members[randomInt(members.length)]);
  const pool = [...members];
  const out: Buffer[] = [];
  while (out.length < count && pool.length > 0) out.push(pool.splice(randomInt(pool.length), 1)[0]);
  return out;
}

const COMMANDS: Record<string, Handler> = {
  GET: (s, [k]) => stringValue(s, k) ?? null,
  SET: set,
  GETDEL: (s, [k]) => {
    const v = stringValue(s, k);
    if (v !== undefined) s.delete(str(k));
    return v ?? null;
  },
  DEL: (s, keys) => keys.filter((k) => s.delete(str(k))).length,
  MGET: (s, keys) =>
    keys.map((k) => {
      const e = s.get(str(k));
      return e?.kind === "string" ? e.value : null;
    }),
  MSET: (s, args) => {
    for (let i = 0; i < args.length; i += 2) s.put(str(args[i]), { kind: "string", value: Buffer.from(buf(args[i + 1])) }, null);
    return OK;
  },
  APPEND: (s, [k, v]) => {
    const e = s.typed(str(k), "string");
    if (e === undefined) s.put(str(k), { kind: "string", value: Buffer.from(buf(v)) }, null);
    else e.value = Buffer.concat([e.value, buf(v)]);
    return (e?.value ?? buf(v)).length;
  },
  GETRANGE: (s, [k, start, end]) => {
    const v = stringValue(s, k) ?? Buffer.alloc(0);
    // Unlike LRANGE, an end before the start of the string still selects its first byte.
    const last = int(end) < 0 ? Math.max(0, int(end) + v.length) : int(end);
    const [from, to] = span(int(start), last, v.length);
    return Buffer.from(v.subarray(from, to));
  },
  SETRANGE: (s, [k, offset, v]) => {
    const at = int(offset);
    if (at < 0) throw new RedisReplyError("ERR offset is out of range");
    const e = s.typed(str(k), "string");
    const value = buf(v);
    if (e === undefined && value.length === 0) return 0;
    const old = e?.value ?? Buffer.alloc(0);
    const next = Buffer.alloc(Math.max(old.length, at + value.length));
    old.copy(next);
    value.copy(next, at);
    if (e === undefined) s.put(str(k), { kind: "string", value: next }, null);
    else e.value = next;
    return next.length;
  },
  STRLEN: (s, [k]) => stringValue(s, k)?.length ?? 0,
  INCRBY: incrBy,
  INCRBYFLOAT: incrByFloat,
  LPUSH: push("left"),
  RPUSH: push("right"),
  LPOP: pop("left"),
  RPOP: pop("right"),
  LINDEX: (s, [k, index]) => {
    const list = listValue(s, k) ?? [];
    const i = int(index);
    return list[i < 0 ? i + list.length : i] ?? null;
  },
  LSET: (s, [k, index, v]) => {
    const list = listValue(s, k);
    if (list === undefined) throw new RedisReplyError("ERR no such key");
    let i = int(index);
    if (i < 0) i += list.length;
    if (i < 0 || i >= list.length) throw new RedisReplyError("ERR index out of range");
    list[i] = Buffer.from(buf(v));
    return OK;
  },
  LRANGE: (s, [k, start, stop]) => {
    const list = listValue(s, k) ?? [];
    const [from, to] = span(int(start), int(stop), list.length);
    return list.slice(from, to);
  },
  LTRIM: (s, [k, start, stop]) => {
    const list = listValue(s, k);
    if (list === undefined) return OK;
    const [from, to] = span(int(start), int(stop), list.length);
    list.splice(0, list.length, ...list.slice(from, to));
    s.dropIfEmpty(str(k));
    return OK;
  },
  LINSERT: (s, [k, where, pivot, v]) => {
    const list = listValue(s, k);
    if (list === undefined) return 0;
    const i = list.findIndex((x) => x.equals(buf(pivot)));
    if (i < 0) return -1;
    list.splice(str(where).toUpperCase() === "BEFORE" ? i : i + 1, 0, Buffer.from(buf(v)));
    return list.length;
  },
  LREM: (s, [k, count, v]) => {
    const list = listValue(s, k);
    if (list === undefined) return 0;
    const n = int(count);
    const limit = n === 0 ? Infinity : Math.abs(n);
    const order = [...list.keys()];
    if (n < 0) order.reverse();
    const remove = new Set(order.filter((i) => list[i].equals(buf(v))).slice(0, limit));
    list.splice(0, list.length, ...list.filter((_, i) => !remove.has(i)));
    s.dropIfEmpty(str(k));
    return remove.size;
  },
  LMOVE: (s, [src, dst, from, to]) => {
    const source = listValue(s, src);
    listValue(s, dst);
    if (source === undefined) return null;
    const v = str(from).toUpperCase() === "LEFT" ? source.shift() : source.pop();
    s.dropIfEmpty(str(src));
    const target = listFor(s, dst);
    if (str(to).toUpperCase() === "LEFT") target.unshift(v as Buffer);
    else target.push(v as Buffer);
    return v ?? null;
  },
  LLEN: (s, [k]) => listValue(s, k)?.length ?? 0,
  SADD: (s, [k, ...members]) => {
    const set = setFor(s, k);
    const before = set.size;
    for (const m of members) set.set(member(buf(m)), Buffer.from(buf(m)));
    return set.size - before;
  },
  SREM: (s, [k, ...members]) => {
    const set = setValue(s, k);
    if (set === undefined) return 0;
    const removed = members.filter((m) => set.delete(member(buf(m)))).length;
    s.dropIfEmpty(str(k));
    return removed;
  },
  SISMEMBER: (s, [k, m]) => (setValue(s, k)?.has(member(buf(m))) ? 1 : 0),
  SMEMBERS: (s, [k]) => [...(setValue(s, k)?.values() ?? [])],
  SCARD: (s, [k]) => setValue(s, k)?.size ?? 0,
  SPOP: (s, [k, count]) => {
    if (count !== undefined && int(count) < 0) throw new RedisReplyError("ERR value is out of range, must be positive");
    const set = setValue(s, k);
    const picked = sample([...(set?.values() ?? [])], count === undefined ? 1 : int(count));
    for (const m of picked) set?.delete(member(m));
    s.dropIfEmpty(str(k));
    return count === undefined ? (picked[0] ?? null) : picked;
  },
  SRANDMEMBER: (s, [k, count]) => {
    const members = [...(setValue(s, k)?.values() ?? [])];
    if (count === undefined) return members.length === 0 ? null : members[randomInt(members.length)];
    return members.length === 0 ? [] : sample(members, int(count));
  },
  SDIFF: setOp("diff"),
  SINTER: setOp("inter"),
  SUNION: setOp("union"),
  SDIFFSTORE: setOpStore("diff"),
  SINTERSTORE: setOpStore("inter"),
  SUNIONSTORE: setOpStore("union"),
  SMOVE: (s, [src, dst, m]) => {
    const source = setValue(s, src);
    setValue(s, dst);
    if (source === undefined || !source.delete(member(buf(m)))) return 0;
    s.dropIfEmpty(str(src));
    setFor(s, dst).set(member(buf(m)), Buffer.from(buf(m)));
    return 1;
  },
  PEXPIREAT: (s, [k, at]) => (s.expireAt(str(k), int(at)) ? 1 : 0),
  PERSIST: (s, [k]) => (s.persist(str(k)) ? 1 : 0),
  PTTL: (s, [k]) => s.ttl(str(k)),
};

/** Arity checks Redis makes before running a command (the ones Encore's client can get wrong). */
const MIN_ARGS: Record<string, number> = { DEL: 1, MGET: 1, MSET: 2, SDIFF: 1, SINTER: 1, SUNION: 1 };

/** The in-process store; one per process, shared by every cluster (each under its own key prefix). */
export class MemoryRunner implements CommandRunner {
  readonly store: KeyStore;
  private readonly pruner: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.store = new KeyStore(now);
    this.pruner = setInterval(() => this.store.prune(), PRUNE_INTERVAL_MS).unref();
  }

  async run(commands: Command[]): Promise<Reply[]> {
    // Like MULTI/EXEC: nothing runs in between (this is synchronous), a failing command does not stop
    // the others, and the first failure is what the caller sees.
    const now = this.now();
    let failure: unknown = null;
    const replies = commands.map(([name, ...args]) => {
      try {
        return this.runOne(name.toUpperCase(), args, now);
      } catch (err) {
        failure ??= err;
        return null;
      }
    });
    if (failure !== null) throw failure;
    return replies;
  }

  private runOne(name: string, args: RedisArg[], now: number): Reply {
    const handler = COMMANDS[name];
    if (handler === undefined) throw new RedisReplyError(`ERR unknown command '${name}'`);
    if (args.length < (MIN_ARGS[name] ?? 0) || (name === "MSET" && args.length % 2 !== 0)) {
      throw new RedisReplyError(`ERR wrong number of arguments for '${name.toLowerCase()}' command`);
    }
    return handler(this.store, args, now);
  }

  async keysWithPrefix(prefix: string): Promise<string[]> {
    return this.store.keys().filter((k) => k.startsWith(prefix));
  }

  async close(): Promise<void> {
    clearInterval(this.pruner);
  }
}
