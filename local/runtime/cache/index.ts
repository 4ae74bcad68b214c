// Cache clusters for the local runtime, behind RT.cacheCluster(name). By default one in-process store
// per process, volatile like the miniredis `encore run` starts; with REDIS_URL a Redis server. Keys
// carry `<cluster>/` in front as under `encore run` (cli/daemon/run/infra/infra.go), and in tests
// also `test-<run>/`, so concurrent test runs sharing one Redis never see each other's keys.
import { appModel, testMode } from "../core/context";
import { testRunId } from "../sqldb/open";
import type { CommandRunner, Reply } from "./commands";
import { CacheClientError, CacheCluster } from "./cluster";
import { MemoryRunner } from "./memory";
import { RedisRunner } from "./redis";

export { CacheCluster } from "./cluster";

let runner: CommandRunner | null = null;
const clusters = new Map<string, CacheCluster>();

/** The store every cluster of this process uses. */
function sharedRunner(): CommandRunner {
  runner ??= process.env.REDIS_URL ? new RedisRunner(process.env.REDIS_URL) : new MemoryRunner();
  return runner;
}

/** What goes before `<cluster>/`: a test run's own prefix, or LOCAL_CACHE_KEY_PREFIX (spawned test apps). */
export function runKeyPrefix(): string {
  return testMode ? `test-${testRunId()}/` : (process.env.LOCAL_CACHE_KEY_PREFIX ?? "");
}

/**
 * A cluster the app never declares (a `CacheCluster.named` typo) fails on use under `encore run`, which
 * configures only declared clusters (runtimes/core/src/cache/noop.rs); `encore test` serves it anyway.
 */
export class UnconfiguredCluster implements CommandRunner {
  async run(): Promise<Reply[]> {
    throw new CacheClientError("failed to create cache client: cache: this service is not configured to use this cache cluster");
  }
  async keysWithPrefix(): Promise<string[]> {
    return [];
  }
  async close(): Promise<void> {}
}

export function openCacheCluster(name: string): CacheCluster {
  let cluster = clusters.get(name);
  if (cluster === undefined) {
    const declared = testMode || appModel().cacheClusters.some((c) => c.name === name);
    cluster = new CacheCluster(declared ? sharedRunner() : new UnconfiguredCluster(), `${runKeyPrefix()}${name}/`);
    clusters.set(name, cluster);
  }
  return cluster;
}

/** The keys a cluster holds (without the prefix) and the milliseconds each has left (-1: no expiry). */
export async function clusterKeys(name: string): Promise<{ prefix: string; keys: { key: string; ttlMs: number }[] }> {
  const prefix = openCacheCluster(name).keyPrefix;
  const keys = await sharedRunner().keysWithPrefix(prefix);
  const ttls = keys.length === 0 ? [] : await sharedRunner().run(keys.map((k) => ["PTTL", k]));
  return { prefix, keys: keys.map((k, i) => ({ key: k.slice(prefix.length), ttlMs: ttls[i] as number })).filter((k) => k.ttlMs !== -2) };
}

/** Closes the Redis connection (npm start's shutdown). */
export async function closeCaches(): Promise<void> {
  await runner?.close();
  runner = null;
  clusters.clear();
}
