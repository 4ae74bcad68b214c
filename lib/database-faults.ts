// Telling a database outage from a bug: a lost or refused connection means "try again later"
// (unavailable, 503), not internal (500). Shared by the services' middleware and the auth handler.
import { APIError, middleware } from "encore.dev/api";
import log from "encore.dev/log";

/**
 * How Encore's runtime words a failed, refused or lost database connection: tokio-postgres' Display
 * ("error connecting to server: ...", "connection closed", "db error: FATAL: ..." for a terminated
 * backend) or its Debug form, which a cursor's errors carry (runtimes/js/src/sqldb.rs,
 * runtimes/core/src/sqldb/client.rs). The local runtime words them the same way.
 */
const CONNECTION_FAULT =
  /^(error connecting to server|error communicating with the server|connection closed|connection_closed|timeout waiting for server|timeout establishing connection|db error: (FATAL|PANIC):)|kind: (Io|Closed|Connect|Timeout),|severity: "(FATAL|PANIC)"/;

/** isDatabaseFault tells whether an error means the database could not be reached, not that the SQL failed. */
export function isDatabaseFault(err: unknown): boolean {
  if (!(err instanceof Error) || err instanceof APIError) return false;
  // `await using tx` whose rollback failed too: both errors come wrapped in a SuppressedError.
  const { error, suppressed } = err as Error & { error?: unknown; suppressed?: unknown };
  if (error !== undefined || suppressed !== undefined) return isDatabaseFault(error) || isDatabaseFault(suppressed);
  return CONNECTION_FAULT.test(err.message);
}

/** databaseUnavailable is the error a caller gets while `database` cannot be reached. */
export function databaseUnavailable(database: string, err: unknown): APIError {
  log.warn(err, "database unavailable", { database });
  return APIError.unavailable(`database ${database} is unavailable, please retry`);
}

/** unavailableWhileDatabaseDown answers `unavailable` for any endpoint of the service that hit a database outage. */
export function unavailableWhileDatabaseDown(database: string) {
  // A catch() rather than an async function that awaits next: one promise per request instead of three.
  return middleware((req, next) =>
    next(req).catch((err: unknown) => {
      throw isDatabaseFault(err) ? databaseUnavailable(database, err) : err;
    }),
  );
}
