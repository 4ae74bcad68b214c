// Parses SQL with libpg_query (the parser Encore's compiler uses, as WASM) in a worker thread, for
// sql-check.ts: the WASM module loads asynchronously and the analyzer runs synchronously (synckit waits).
import { loadModule, parseSync } from "libpg-query";
import { runAsWorker } from "synckit";

let loading;

runAsWorker(async (queries) => {
  loading ??= loadModule();
  await loading;
  // Empty input is a parse with no statements to libpg_query; this wrapper would refuse it.
  return queries.map((sql) => {
    if (sql.trim() === "") return null;
    try {
      parseSync(sql);
      return null;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  });
});
