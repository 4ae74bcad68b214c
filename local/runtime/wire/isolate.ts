// The SDK records the current request with AsyncLocalStorage.enterWith, which marks the whole
// current async context. Running each handler from a fresh setImmediate gives it a context of its
// own, so a nested call or a concurrent request never sees another request's metadata.
export function runIsolated<T>(fn: () => T | Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    setImmediate(() => {
      try {
        Promise.resolve(fn()).then(resolve, reject);
      } catch (e) {
        reject(e);
      }
    });
  });
}
