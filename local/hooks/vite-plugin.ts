// Vite/vitest plugin: runs the app on the local runtime when Encore's native runtime is absent.
import type { Plugin } from "vite";
import { localResolve } from "./resolve.mjs";

export function encoreLocalRuntime(): Plugin {
  return {
    name: "encore-local-runtime",
    enforce: "pre",
    resolveId(source, importer) {
      return localResolve(source, importer);
    },
  };
}
