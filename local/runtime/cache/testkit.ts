// The cache backends a test runs on: the in-process store always, and the Redis server too when
// REDIS_URL is set (CI's second pass), each under a key prefix of its own that the test removes.
import crypto from "node:crypto";
import { CacheCluster as SdkCacheCluster } from "encore.dev/storage/cache";
import type { Command, CommandRunner, Reply } from "./commands";
import { CacheCluster } from "./cluster";
import { MemoryRunner } from "./memory";
import { RedisRunner } from "./redis";

export interface TestBackend {
  name: "in-process store" | "Redis";
  /** An SDK CacheCluster whose binding is ours on this backend, under a fresh key prefix. */
  cluster(name: string): { sdk: SdkCacheCluster; prefix: string };
  run(...commands: Command[]): Promise<Reply[]>;
  cleanup(): Promise<void>;
}

function backend(name: TestBackend["name"], runner: CommandRunner): TestBackend {
  const root = `test-cache-${crypto.randomBytes(4).toString("hex")}/`;
  return {
    name,
    cluster(clusterName) {
      const prefix = `${root}${clusterName}/`;
      // What `new CacheCluster(name)` builds, bound to this backend instead of the process's own.
      const sdk = Object.assign(Object.create(SdkCacheCluster.prototype) as SdkCacheCluster, {
        clusterName,
        impl: new CacheCluster(runner, prefix),
      });
      return { sdk, prefix };
    },
    run: (...commands) => runner.run(commands),
    async cleanup() {
      if (runner instanceof RedisRunner) await runner.deleteKeysWithPrefix(root);
      await runner.close();
    },
  };
}

export function testBackends(): TestBackend[] {
  const backends = [backend("in-process store", new MemoryRunner())];
  if (process.env.REDIS_URL) backends.push(backend("Redis", new RedisRunner(process.env.REDIS_URL)));
  return backends;
}
