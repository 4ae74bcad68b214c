// What `npm start` says once it serves: where the API is, which database engine holds the data and
// where, which secrets are unset or generated.
import { dataDir, devSecretsFile } from "../../model/layout.mjs";
import { appModel } from "../core/context";
import { secretSource } from "../core/secrets";

/** Which engine holds the databases: a PostgreSQL server (DATABASE_URL, shown without credentials) or PGlite. */
function engineLine(databaseUrl: string | undefined): string {
  return databaseUrl ? `PostgreSQL server at ${new URL(databaseUrl).host} (DATABASE_URL)` : "embedded PostgreSQL (PGlite)";
}

/** Which declared secrets are unset, and which hold a value npm start generated. */
function secretsLine(): string {
  const names = [...new Set(appModel().secrets.map((s) => s.name))].sort();
  const parts: string[] = [];
  const unset = names.filter((name) => secretSource(name) === null);
  if (unset.length > 0) parts.push(`unset: ${unset.join(", ")}`);
  const generated = names.filter((name) => secretSource(name) === devSecretsFile);
  if (generated.length > 0) parts.push(`${generated.join(", ")} generated for development, kept in ${devSecretsFile}`);
  return parts.join("; ") || "all set";
}

/** The banner for an API listening on apiUrl: the first line, then one line per fact. */
export function startupBanner(apiUrl: string): string {
  const lines: [string, string][] = [
    ["Database", engineLine(process.env.DATABASE_URL)],
    ["Data", `${dataDir} (databases, bucket files; npm run reset deletes them)`],
    ["Secrets", secretsLine()],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  return [`API listening on ${apiUrl}`, ...lines.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join("\n") + "\n";
}
