// `npm start`'s side of `npm run db`: its embedded databases on the wire server while it runs.
import { appModel } from "../runtime/core/context";
import { onShutdown } from "../runtime/lifecycle/run";
import { openDatabase } from "../runtime/sqldb";
import { announce, dbPort } from "./db-endpoint";
import { serveDatabases } from "./db-wire";

/** Serves the app's embedded databases on DB_PORT; a busy port is reported, not fatal. */
export async function serveEmbeddedDatabases(dataDir: string): Promise<void> {
  const port = dbPort();
  if (port === null) return;
  try {
    const server = await serveDatabases(port, (db) => (appModel().databases.some((d) => d.name === db) ? openDatabase(db).ready() : null));
    const withdraw = announce(dataDir, server.port);
    onShutdown(async () => {
      withdraw();
      await server.close();
    });
  } catch (e) {
    const busy = (e as NodeJS.ErrnoException).code === "EADDRINUSE";
    process.stderr.write(
      `embedded databases not served for npm run db: ${busy ? `port ${port} is in use (set DB_PORT to another port)` : (e as Error).message}\n`,
    );
  }
}
