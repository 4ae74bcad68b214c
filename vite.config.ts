/// <reference types="vitest" />
import { defineConfig, type UserConfig } from "vite";
import path from "path";
import { encoreLocalRuntime } from "./local/hooks/vite-plugin";

// Under `encore test` the CLI sets ENCORE_RUNTIME_LIB and generates encore.gen: use them as Encore's
// template does and collect only the app's tests. Otherwise run on the local runtime (local/README.md).
const onLocalRuntime = !process.env.ENCORE_RUNTIME_LIB;

/** The local runtime's own tests; they spawn apps with tsx and mean nothing under `encore test`. */
const RUNTIME_TESTS = "local/**/*.test.ts";

/** Resolution, plugins and timeouts both projects share (inline projects do not inherit them). */
const shared = {
  resolve: onLocalRuntime ? {} : { alias: { "~encore": path.resolve(__dirname, "./encore.gen") } },
  plugins: onLocalRuntime ? [encoreLocalRuntime()] : [],
  test: {
    exclude: ["node_modules/**", "local/__tests__/**", ".local/**", "encore.gen/**"],
    // The SDK must go through vite so that its native binding can be swapped for local/runtime.
    server: { deps: { inline: onLocalRuntime ? [/encore\.dev/] : [] } },
    // Tests make many sign-ups, logins and links from one address; the rate-limit tests set their own limits.
    env: {
      RATE_LIMIT_SIGNUP: "1000000/1h",
      RATE_LIMIT_LOGIN: "1000000/1h",
      RATE_LIMIT_SHORTEN: "1000000/1h",
      RATE_LIMIT_SHORTEN_PER_USER: "1000000/1h",
      // A signing key as a deployment sets one; unset, every test process would warn that it made up its own.
      JWTSecret: "vitest-signing-key-vitest-signing-key-32",
    },
    // Guards against a hang, not a speed limit: CI machines are shared, and one test may wait minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for a page or a list to settle, not for a deadline: its 1 s default failed under CI load.
    expect: { poll: { timeout: 30_000 } },
  },
} satisfies UserConfig;

/** The services' tests, the seeds', the documentation's walkthrough and infra.config.json's check: `npm run test:app`. */
const app = {
  ...shared,
  test: { ...shared.test, name: "app", include: ["**/*.test.ts"], exclude: [...shared.test.exclude, RUNTIME_TESTS] },
} satisfies UserConfig;

/** The local runtime's tests: `npm run test:runtime`. */
const runtime = { ...shared, test: { ...shared.test, name: "runtime", include: [RUNTIME_TESTS] } } satisfies UserConfig;

export default defineConfig({
  test: {
    // Set on the root project only, so it runs once per run whichever projects are selected.
    globalSetup: onLocalRuntime ? ["./local/vitest-setup.ts"] : [],
    projects: onLocalRuntime ? [app, runtime] : [app],
  },
});
