/// <reference types="vitest" />
import { defineConfig } from "vite";
import path from "path";
import { encoreLocalRuntime } from "./local/hooks/vite-plugin";

// Under `encore test` the CLI sets ENCORE_RUNTIME_LIB and generates encore.gen: use them as Encore's
// template does. Otherwise run on the local runtime (local/README.md).
const onLocalRuntime = !process.env.ENCORE_RUNTIME_LIB;

export default defineConfig({
  resolve: onLocalRuntime ? {} : { alias: { "~encore": path.resolve(__dirname, "./encore.gen") } },
  plugins: onLocalRuntime ? [encoreLocalRuntime()] : [],
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "local/__tests__/**", ".local/**", "encore.gen/**"],
    globalSetup: onLocalRuntime ? ["./local/vitest-setup.ts"] : [],
    // The SDK must go through vite so that its native binding can be swapped for local/native.
    server: { deps: { inline: onLocalRuntime ? [/encore\.dev/] : [] } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
