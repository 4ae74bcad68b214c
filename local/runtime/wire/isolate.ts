// The SDK records the current request with AsyncLocalStorage.enterWith, which marks the whole
// current async context. Running each handler in an async scope of its own (an AsyncResource, the
// context a fresh setImmediate would give, without waiting for the event loop's next turn) means a
// nested call or a concurrent request never sees another request's metadata.
import { AsyncResource } from "node:async_hooks";

export function runIsolated<T>(fn: () => T | Promise<T>): Promise<T> {
  return new AsyncResource("encore-local-request").runInAsyncScope(settle<T>, null, fn);
}

/** fn's outcome as a promise, a throw as a rejection; not an async wrapper, whose promise would be one more per call. */
export function settle<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (e) {
    return Promise.reject(e);
  }
}
