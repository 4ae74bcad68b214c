// A port a side server (dashboard, database wire server) listens on, read from its environment
// variable: unset or empty is the default, "off" turns that server off.

/** The port `variable` asks for, `fallback` when unset, or null when it is "off". */
export function envPort(variable: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env[variable];
  if (raw === undefined || raw === "") return fallback;
  if (raw === "off") return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${variable}=${raw} is not a port number (0-65535, or "off")`);
  return n;
}
