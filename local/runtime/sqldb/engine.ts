// The one small interface both engines (embedded PGlite, a PostgreSQL server) implement.
import type { Holder } from "./lock";
import type { TypeCatalog } from "./types";

/** A statement's parameter types, as the server describes them before running it. */
export interface Description {
  paramTypes: number[];
}

/** A statement's result in PostgreSQL's text format: column names and type OIDs, then rows. */
export interface RawResult {
  fields: { name: string; oid: number }[];
  rows: (string | null)[][];
}

/** One connection, held exclusively until release(). */
export interface Session {
  describe(sql: string): Promise<Description>;
  /** Runs one statement with text-format parameters (the extended protocol). */
  execute(sql: string, params: (string | null)[]): Promise<RawResult>;
  /** Runs SQL through the simple protocol, so several statements may be given (migrations, BEGIN). */
  simple(sql: string): Promise<void>;
  /**
   * Embedded engine only: hands PostgreSQL wire-protocol messages of another client (psql through
   * `npm run db -- shell`) to the connection and returns its answer.
   */
  wire?(message: Uint8Array): Promise<Uint8Array>;
  /** Who holds the session; statements record their activity on it. */
  readonly holder: Holder;
  release(): void;
}

/** A database engine for one Encore database. */
export interface Engine {
  /** The Encore database name, for messages. */
  readonly dbName: string;
  readonly types: TypeCatalog;
  /** Parameter descriptions by SQL text: describing once per statement text is enough. */
  readonly described: Map<string, Description>;
  session(holder: Holder): Promise<Session>;
  /**
   * Embedded engine only: keeps the instance open (not closed for idleness) until the returned
   * function is called, for a client whose session settings and prepared statements live in it.
   */
  hold?(): () => void;
  close(): Promise<void>;
}

/** Session settings both engines use, so results do not depend on the machine (Encore's clusters run in UTC). */
export const SESSION_SETTINGS: Record<string, string> = { TimeZone: "UTC", DateStyle: "ISO", bytea_output: "hex" };

/** Quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
