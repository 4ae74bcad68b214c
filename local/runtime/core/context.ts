// Where the local runtime is, which app it runs and how it was started; shared by every subsystem.
import fs from "node:fs";
import path from "node:path";
import type { AppModel } from "../../model/app-model";
import { cachedAppModel } from "../../compiler/cache-file";
import { appRoot, testScratchRoot } from "../../model/layout.mjs";

export { appRoot };

/** True under vitest (NODE_ENV=test), as Encore's own runtime decides test mode. */
export const testMode = process.env.NODE_ENV === "test";

let model: AppModel | null = null;

/**
 * The app model, read once per process from the analysis `npm start` or the test setup made before
 * any runtime code loads; reading it loads no TypeScript compiler, which would cost ~46 MB of RSS.
 */
export function appModel(): AppModel {
  model ??= cachedAppModel(appRoot);
  if (model === null)
    throw new Error(
      `the analysis of the app at ${appRoot} is missing or stale (a file changed after it): run \`npm run gen\` (npm start and npm test do it first)`,
    );
  return model;
}

let baseUrl: string | null = null;

/** The API's base URL: the running local server's, else http://127.0.0.1:$PORT (4000). */
export function apiBaseUrl(): string {
  return baseUrl ?? `http://127.0.0.1:${process.env.PORT ?? "4000"}`;
}

/** Called by the HTTP server once it listens, so URLs built afterwards point at it. */
export function setApiBaseUrl(url: string): void {
  baseUrl = url;
}

/** A per-process scratch directory for test state that must not leak between workers. */
export function testScratchDir(): string {
  const dir = path.join(testScratchRoot, `${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
