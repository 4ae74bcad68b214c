// A real Redis server (REDIS_URL) behind the cache clusters, through ioredis. Several commands go
// in one MULTI/EXEC, as Encore's client sends a write and its PEXPIREAT/PERSIST together.
import { Redis } from "ioredis";
import { type Command, type CommandRunner, type Reply, RedisReplyError } from "./commands";

/** Connects lazily; a request waits at most one reconnect attempt instead of queueing for long. */
export class RedisRunner implements CommandRunner {
  private readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 10_000 });
    // Without a listener ioredis reports connection errors on stderr; each command still fails with them.
    this.client.on("error", () => {});
  }

  async run(commands: Command[]): Promise<Reply[]> {
    try {
      if (commands.length === 1) {
        const [name, ...args] = commands[0];
        return [(await this.client.callBuffer(name, ...args)) as Reply];
      }
      const multi = this.client.multi();
      for (const [name, ...args] of commands) multi.callBuffer(name, ...args);
      const results = (await multi.exec()) ?? [];
      const failed = results.find(([err]) => err !== null);
      if (failed !== undefined) throw failed[0];
      return results.map(([, reply]) => reply as Reply);
    } catch (err) {
      throw replyError(err);
    }
  }

  async keysWithPrefix(prefix: string): Promise<string[]> {
    const found: string[] = [];
    for await (const keys of this.scan(prefix)) found.push(...keys);
    return found;
  }

  /** Deletes every key under a prefix (a finished test run's), a batch at a time. */
  async deleteKeysWithPrefix(prefix: string): Promise<number> {
    let deleted = 0;
    for await (const keys of this.scan(prefix)) {
      if (keys.length > 0) deleted += await this.client.unlink(...keys);
    }
    return deleted;
  }

  /** Batches of the keys under a prefix (SCAN MATCH with the prefix's glob characters escaped). */
  private scan(prefix: string): AsyncIterable<string[]> {
    return this.client.scanStream({ match: `${prefix.replace(/[*?[\]\\]/g, "\\$&")}*`, count: 500 });
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/** Server replies become RedisReplyError; connection failures stay as they are. */
function replyError(err: unknown): unknown {
  if (err instanceof Error && err.name === "ReplyError") return new RedisReplyError(err.message);
  return err;
}
