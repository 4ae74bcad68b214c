// Vitest global setup on the local runtime: what `encore test` does before running the tests —
// check the app against Encore's compile rules, generate ~encore/*, and name this run's databases and cache keys.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { loadAppModel } from "./compiler/cache";
import { generate } from "./codegen/generate";
import { appRoot, testScratchRoot } from "./model/layout.mjs";

/** Compiles the app at `root` (throwing AppCompileError on a rule violation) and generates its code. */
export function prepareApp(root: string): void {
  generate(loadAppModel(root));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Test workers keep objects in <testScratchRoot>/<pid>/; remove those whose worker has exited. */
function removeScratchOfExitedWorkers(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const pid of fs.readdirSync(dir)) {
    if (!alive(Number(pid))) fs.rmSync(path.join(dir, pid), { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  prepareApp(appRoot);
  // Watch mode reruns without this setup; the runtime reads the analysis and never redoes it.
  project.onTestsRerun(() => prepareApp(appRoot));
  const run = process.env.LOCAL_TEST_DB_RUN ?? randomBytes(4).toString("hex");
  process.env.LOCAL_TEST_DB_RUN = run;
  return async () => {
    removeScratchOfExitedWorkers(testScratchRoot);
    if (process.env.REDIS_URL) {
      const { RedisRunner } = await import("./runtime/cache/redis");
      const redis = new RedisRunner(process.env.REDIS_URL);
      await redis.deleteKeysWithPrefix(`test-${run}/`);
      await redis.close();
    }
    if (!process.env.DATABASE_URL) return;
    const { dropTestDatabases } = await import("./runtime/sqldb");
    await dropTestDatabases(run);
  };
}
