// Reads the databases of an `encore build docker` infra config (infra.config.json), so that
// `npm run migrate -- --config infra.config.json` migrates exactly what the self-hosted image uses.
import fs from "node:fs";
import type { AppModel } from "../model/app-model";
import type { MigrationTarget } from "./migrate";

type EnvRef = string | { $env: string };

interface SqlServer {
  host: string;
  tls_config?: { disabled?: boolean };
  databases: Record<string, { name?: string; username: EnvRef; password?: EnvRef }>;
}

/** A config value: a literal, or {"$env": "VAR"} read from the environment as Encore reads it. */
function resolve(value: EnvRef | undefined, env: NodeJS.ProcessEnv, where: string): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  const v = env[value.$env];
  if (v === undefined) throw new Error(`${where}: environment variable ${value.$env} is not set`);
  return v;
}

/** The migration target of every database the app declares, from the config's sql_servers. */
export function targetsFromInfraConfig(file: string, model: AppModel, env: NodeJS.ProcessEnv = process.env): MigrationTarget[] {
  const config = JSON.parse(fs.readFileSync(file, "utf8")) as { sql_servers?: SqlServer[] };
  return model.databases.map((database) => {
    const server = (config.sql_servers ?? []).find((s) => database.name in s.databases);
    if (!server) throw new Error(`${file}: no sql_servers entry declares database "${database.name}"`);
    const entry = server.databases[database.name];
    const where = `${file}: database "${database.name}"`;
    const url = new URL(`postgres://${server.host}/postgres`);
    url.username = encodeURIComponent(resolve(entry.username, env, where));
    url.password = encodeURIComponent(resolve(entry.password, env, where));
    url.searchParams.set("sslmode", server.tls_config?.disabled ? "disable" : "require");
    return { database, serverUrl: url.toString(), name: entry.name ?? database.name };
  });
}
