// Vitest global setup on the local runtime: what `encore test` does before running the tests —
// check the app against Encore's compile rules, generate ~encore/*, and name this run's databases.
import { randomBytes } from "node:crypto";
import { loadAppModel } from "./appmodel/cache";
import { generate } from "./codegen/generate";
import { appRootDir } from "./paths";

export default async function setup(): Promise<() => Promise<void>> {
  const model = loadAppModel(appRootDir);
  generate(model);
  const run = process.env.LOCAL_TEST_DB_RUN ?? randomBytes(4).toString("hex");
  process.env.LOCAL_TEST_DB_RUN = run;
  return async () => {
    if (!process.env.DATABASE_URL) return;
    const { dropTestDatabases } = await import("./native/sqldb");
    await dropTestDatabases(run);
  };
}
