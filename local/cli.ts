// `npm start`, `npm run gen`, `npm run check`: the local stand-in for `encore run` / `encore check`.
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadAppModel } from "./appmodel/cache";
import { AppCompileError, type AppModel } from "./appmodel/model";
import { generate, genDir } from "./codegen/generate";
import { appRootDir } from "./paths";

/** Analyzes the app like Encore's compiler; on a rule violation prints it and exits 1. */
function compile(): AppModel {
  try {
    return loadAppModel(appRootDir);
  } catch (e) {
    if (e instanceof AppCompileError) {
      process.stderr.write(e.message + "\n");
      process.exit(1);
    }
    throw e;
  }
}

async function start(): Promise<void> {
  generate(compile());
  register("./hooks/node-hooks.mjs", import.meta.url);
  if (process.env.LOCAL_RUN_CRON === "1") {
    const { startCronScheduler } = await import("./native/cron");
    const { onShutdown } = await import("./native/api/server");
    onShutdown(startCronScheduler());
  }
  await import(pathToFileURL(path.join(genDir(appRootDir), "internal", "entrypoints", "main.js")).href);
}

/** `npm run migrate`: applies every database's migrations on the server named by DATABASE_URL. */
async function migrate(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    process.stderr.write("set DATABASE_URL to the PostgreSQL server, e.g. postgres://user:pass@db:5432/postgres\n");
    process.exit(2);
  }
  const { migrateAll } = await import("./migrate");
  for (const r of await migrateAll(serverUrl, compile())) {
    const what = r.applied.length ? `applied ${r.applied.join(", ")}` : "up to date";
    process.stdout.write(`${r.database}: ${what}\n`);
  }
}

const commands: Record<string, () => Promise<void> | void> = {
  gen: () => {
    generate(compile());
  },
  check: () => {
    const model = compile();
    process.stdout.write(`ok: ${model.services.length} services, ${model.endpoints.length} endpoints\n`);
  },
  start,
  migrate,
};

const name = process.argv[2] ?? "";
const command = commands[name];
if (!command) {
  process.stderr.write(`usage: tsx local/cli.ts <${Object.keys(commands).join("|")}>\n`);
  process.exit(2);
}
await command();
