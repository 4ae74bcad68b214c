// The SDK records the current request with AsyncLocalStorage.enterWith, which marks the whole current
// async context. Running each handler in an async resource of its own gives it a context of its own,
// so a nested call or a concurrent request never sees another request's metadata, and the caller's
// context is as it was once the handler returns. Unlike a hop through setImmediate, which did the same,
// it costs no extra turn of the event loop per request.
import { AsyncResource } from "node:async_hooks";

export function runIsolated<T>(fn: () => T | Promise<T>): Promise<T> {
  return new AsyncResource("encore-request").runInAsyncScope(async () => fn());
}
