// The process lifecycle of `npm start`: migrate the databases, serve through the gateway, and on
// SIGINT/SIGTERM drain requests and deliveries and run the stop hooks.
import { recordServingPort, releaseDataDir } from "./data-lock";
import { closeAllDatabases, openDatabase } from "../sqldb";
import { isConnectionFault } from "../sqldb/server-engine";
import { pubsubTestHooks } from "../pubsub";
import { appModel } from "../core/context";
import { startLocalServer, type LocalServer } from "../gateway/serve";
import { startupBanner } from "./banner";

let stopHooks: (() => void | Promise<void>)[] = [];

/** Work to stop before exit (cron scheduler, subscriptions); registered by local/cli.ts. */
export function onShutdown(hook: () => void | Promise<void>): void {
  stopHooks.push(hook);
}

/** Seconds between attempts to reach a database server that is down at start-up. */
const STARTUP_RETRY_SECONDS = 2;

/**
 * Opens and migrates every database before serving, as `encore run` migrates at startup. A server
 * that cannot be reached is waited for, one log line per attempt, instead of ending the process.
 */
async function migrateDatabases(): Promise<void> {
  for (const db of appModel().databases) {
    for (;;) {
      try {
        await openDatabase(db.name).ready();
        const version = db.migrations.at(-1)?.number;
        process.stdout.write(`database ${db.name}: ready${version === undefined ? "" : `, migrated to version ${version}`}\n`);
        break;
      } catch (err) {
        if (!isConnectionFault(err)) throw err;
        process.stderr.write(
          `database ${db.name}: cannot reach the database server (${(err as Error).message}); retrying in ${STARTUP_RETRY_SECONDS} s\n`,
        );
        await new Promise((r) => setTimeout(r, STARTUP_RETRY_SECONDS * 1000));
      }
    }
  }
}

/** How long in-flight requests and deliveries get to finish after SIGINT/SIGTERM. */
const DRAIN_SECONDS = 4;

/**
 * Resolves on the first SIGINT or SIGTERM. The listeners stay, so a second copy of the signal (sent to
 * the process group and relayed by npm as well) cannot kill the process in the middle of its drain.
 */
function shutdownRequested(): Promise<void> {
  return new Promise((resolve) => {
    process.on("SIGINT", () => resolve());
    process.on("SIGTERM", () => resolve());
  });
}

/** One clear line instead of a stack trace when the port is taken; null for any other error. */
function portTakenMessage(err: unknown, host: string, port: number): string | null {
  if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") return null;
  return `port ${port} on ${host} is already in use (another npm start?): stop that process or choose another port, e.g. PORT=${port + 1} npm start\n`;
}

/** `npm start`: serve on $PORT (4000) until SIGINT/SIGTERM, then drain and resolve to the exit code. */
export async function runForever(): Promise<number> {
  const stop = shutdownRequested();
  onShutdown(closeAllDatabases);
  onShutdown(releaseDataDir);
  const ready = await Promise.race([migrateDatabases().then(() => true), stop.then(() => false)]);
  if (!ready) return runShutdownHooks();
  const port = Number(process.env.PORT ?? 4000);
  const host = process.env.HOST ?? "127.0.0.1";
  let server: LocalServer;
  try {
    server = await startLocalServer(port, host);
  } catch (err) {
    const taken = portTakenMessage(err, host, port);
    if (taken === null) throw err;
    process.stderr.write(taken);
    await runShutdownHooks();
    return 1;
  }
  recordServingPort(Number(new URL(server.baseUrl).port));
  process.stdout.write(startupBanner(server.baseUrl));
  await stop;
  process.stdout.write("shutting down\n");
  // The port is free as soon as close() starts; requests in flight get DRAIN_SECONDS to finish.
  const deadline = Date.now() + DRAIN_SECONDS * 1000;
  await server.close(DRAIN_SECONDS * 1000);
  await pubsubTestHooks.drain(undefined, Math.max(deadline - Date.now(), 1)).catch(() => {
    process.stdout.write("deliveries still in flight were left to be delivered again at the next start\n");
  });
  return runShutdownHooks();
}

async function runShutdownHooks(): Promise<number> {
  for (const hook of stopHooks) await hook();
  stopHooks = [];
  return 0;
}
