// Node module resolve hook for `npm start` (registered by local/cli.ts after tsx's own hooks).
import { fileURLToPath, pathToFileURL } from "node:url";
import { localResolve } from "./resolve.mjs";

export async function resolve(specifier, context, nextResolve) {
  const importer = context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : undefined;
  const target = localResolve(specifier, importer);
  // Hand the replacement on to the next resolver (tsx), which then compiles it as TypeScript.
  return nextResolve(target === null ? specifier : pathToFileURL(target).href, context);
}
