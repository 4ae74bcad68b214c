// The keys of the in-process cache store: typed values with Redis's expiry rules, bounded the way
// `encore run` bounds its miniredis (cli/daemon/redis/redis.go: every 15 s, random keys are removed
// until at most 100 remain), so code that relies on a cached value surviving fails here as it would there.
import { randomInt } from "node:crypto";
import { RedisReplyError } from "./commands";

export type Value =
  | { kind: "string"; value: Buffer }
  | { kind: "list"; value: Buffer[] }
  /** Members keyed by their bytes as latin1, which maps bytes to strings one to one. */
  | { kind: "set"; value: Map<string, Buffer> };

type Entry = Value & { expiresAt: number | null };

export const WRONGTYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";

/** How many keys survive a prune, and how often one runs (cli/daemon/redis/redis.go). */
export const MAX_KEYS = 100;
export const PRUNE_INTERVAL_MS = 15_000;

export class KeyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The live entry at key, dropping it if it has expired. */
  get(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e !== undefined && e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  /** The value at key if it has this kind; undefined when missing; WRONGTYPE otherwise. */
  typed<K extends Value["kind"]>(key: string, kind: K): Extract<Entry, { kind: K }> | undefined {
    const e = this.get(key);
    if (e !== undefined && e.kind !== kind) throw new RedisReplyError(WRONGTYPE);
    return e as Extract<Entry, { kind: K }> | undefined;
  }

  /** Stores a value; `expiresAt` null means no expiry. */
  put(key: string, value: Value, expiresAt: number | null): void {
    this.entries.set(key, { ...value, expiresAt });
  }

  delete(key: string): boolean {
    return this.get(key) !== undefined && this.entries.delete(key);
  }

  /** Removes a list or set that became empty, as Redis does. */
  dropIfEmpty(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined || e.kind === "string") return;
    if ((e.kind === "list" ? e.value.length : e.value.size) === 0) this.entries.delete(key);
  }

  /** Sets the absolute expiry (ms since epoch); one in the past deletes the key. Reports whether the key exists. */
  expireAt(key: string, at: number): boolean {
    const e = this.get(key);
    if (e === undefined) return false;
    if (at <= this.now()) this.entries.delete(key);
    else e.expiresAt = at;
    return true;
  }

  /** Removes the expiry; reports whether there was one. */
  persist(key: string): boolean {
    const e = this.get(key);
    if (e === undefined || e.expiresAt === null) return false;
    e.expiresAt = null;
    return true;
  }

  /** Milliseconds left, -1 without expiry, -2 when missing (PTTL). */
  ttl(key: string): number {
    const e = this.get(key);
    if (e === undefined) return -2;
    return e.expiresAt === null ? -1 : e.expiresAt - this.now();
  }

  /** Drops expired keys, then random keys until at most MAX_KEYS remain. */
  prune(): void {
    for (const key of [...this.entries.keys()]) this.get(key);
    const keys = [...this.entries.keys()];
    while (keys.length > MAX_KEYS) {
      const i = randomInt(keys.length);
      this.entries.delete(keys[i]);
      keys[i] = keys[keys.length - 1];
      keys.pop();
    }
  }

  /** The live keys. */
  keys(): string[] {
    return [...this.entries.keys()].filter((k) => this.get(k) !== undefined);
  }

  get size(): number {
    return this.entries.size;
  }
}
