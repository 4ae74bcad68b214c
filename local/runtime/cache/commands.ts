// The Redis commands Encore's cache client sends (runtimes/core/src/cache/client.rs), as data, so
// the same command list runs on a real Redis server or on the in-process store that stands in for
// `encore run`'s miniredis.

export type RedisArg = string | number | Buffer;

/** One command: its name and arguments, e.g. ["INCRBY", "k", 1]. */
export type Command = [name: string, ...args: RedisArg[]];

/** A reply: nil, an integer, a bulk or status string, or an array of replies. */
export type Reply = null | number | Buffer | Reply[];

/** Runs commands against one Redis-compatible store. */
export interface CommandRunner {
  /** Runs one command, or several as one MULTI/EXEC transaction; throws the first command error. */
  run(commands: Command[]): Promise<Reply[]>;
  /** Every key that starts with prefix (tests inspect what a cluster stored). */
  keysWithPrefix(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/** An error the server answered a command with ("WRONGTYPE ...", "ERR ..."). */
export class RedisReplyError extends Error {}
