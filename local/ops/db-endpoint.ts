// Where `npm start` serves its embedded databases over the wire protocol, and how `npm run db` finds
// it: DB_PORT (default 9500, Encore's local database proxy port in cli/cmd/encore/daemon/daemon.go;
// "off" serves none), announced in <data dir>/db-server.json while the process runs.
import fs from "node:fs";
import path from "node:path";
import { lockHolder } from "../runtime/lifecycle/data-lock";
import { envPort } from "../runtime/core/env-port";

const DEFAULT_PORT = 9500;
const FILE = "db-server.json";

/** The port DB_PORT asks for, or null when it turns the server off. */
export function dbPort(env: NodeJS.ProcessEnv = process.env): number | null {
  return envPort("DB_PORT", DEFAULT_PORT, env);
}

/** The URI of a database on the wire server, in the form of `encore db conn-uri` (cli/daemon/db.go dbConnectLocal). */
export function wireUri(port: number, database: string): string {
  return `postgresql://encore:local@127.0.0.1:${port}/${database}?sslmode=disable`;
}

/** Tells `npm run db` where this process serves its databases; the announcement goes when it stops. */
export function announce(dataDir: string, port: number): () => void {
  const file = path.join(dataDir, FILE);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, port }));
  return () => fs.rmSync(file, { force: true });
}

/** The port of the running npm start that holds `dataDir`, or null when none is running or it serves none. */
export function runningPort(dataDir: string): number | null {
  const holder = lockHolder(dataDir);
  if (!holder) return null;
  try {
    const found = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), "utf8")) as { pid: number; port: number };
    return found.pid === holder.pid ? found.port : null;
  } catch {
    return null;
  }
}
