// Helpers for tests of rate limits over HTTP; in __tests__ so Encore does not bundle them.
import { afterAll, beforeAll } from "vitest";

/** Encore's error body, with the details the rate limits add. */
export interface RateLimitedBody {
  code: string;
  message: string;
  details: { retryAfterSeconds: number };
}

/**
 * Runs `scenario` from the start of a fresh window of `windowS` seconds and returns what it observed.
 * A scenario the machine was too slow to finish within one window proves nothing about a limit, so it
 * runs again (at most 3 times); assert on what it returns, after it returns.
 */
export async function inOneWindow<T>(windowS: number, scenario: () => Promise<T>): Promise<T> {
  const ms = windowS * 1000;
  for (let attempt = 0; attempt < 3; attempt++) {
    await new Promise((r) => setTimeout(r, ms - (Date.now() % ms) + 50));
    const window = Math.floor(Date.now() / ms);
    const observed = await scenario();
    if (Math.floor(Date.now() / ms) === window) return observed;
  }
  throw new Error(`the scenario never fitted into one ${windowS} s window`);
}

/**
 * Sets environment variables for the tests of the enclosing describe block (undefined removes one) and
 * restores them afterwards: vitest runs other test files in the same process later.
 */
export function useEnv(vars: Record<string, string | undefined>): void {
  const saved: Record<string, string | undefined> = {};
  const set = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  beforeAll(() => {
    for (const [name, value] of Object.entries(vars)) {
      saved[name] = process.env[name];
      set(name, value);
    }
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) set(name, value);
  });
}
