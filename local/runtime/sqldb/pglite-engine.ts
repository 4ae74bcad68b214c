// Embedded PostgreSQL (PGlite): one instance per database, persisted in a directory or in memory.
// PGlite is a single connection, so sessions take turns through a ConnectionLock (see lock.ts).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PGlite } from "@electric-sql/pglite";
import { SESSION_SETTINGS, type Description, type Engine, type RawResult, type Session } from "./engine";
import { ConnectionLock, newHolder, type Holder } from "./lock";
import { releaseWasmMemory } from "./release-memory";
import { TypeCatalog } from "./types";

/**
 * Where an embedded database lives: a directory, or memory (fresh from a cached empty cluster). A
 * directory's instance may be closed after `closeWhenIdleMs` without a session (see IdleCloser).
 */
export type PgliteLocation = { dir: string; closeWhenIdleMs?: number } | { memory: true; templateDir: string };

/**
 * PostgreSQL's settings for an embedded database, on top of PGlite's own. initdb sizes a server:
 * 128 MB of buffers and shared memory for 100 connections, all touched at start, so `npm start`
 * held 1.2 GiB of RSS at idle with its three databases. PGlite is one connection, and a development
 * database is small (8 MB of buffers hold 50,000 links with their index; more is read from the
 * operating system's page cache), so an idle `npm start` holds about 300 MiB.
 */
const DEV_SERVER = [
  ...PGlite.defaultStartParams,
  ...["shared_buffers=8MB", "max_connections=5", "max_wal_senders=0", "max_replication_slots=0"].flatMap((s) => ["-c", s]),
];

/** Starts a PGlite instance with the session settings both engines use. */
async function startInstance(where: PgliteLocation): Promise<PGlite> {
  let pg: PGlite;
  if ("dir" in where) {
    fs.mkdirSync(where.dir, { recursive: true });
    pg = new PGlite(where.dir, { startParams: DEV_SERVER });
  } else {
    pg = await freshInMemory(where.templateDir);
  }
  await pg.waitReady;
  leaveValuesAsText(pg);
  await pg.exec(
    Object.entries(SESSION_SETTINGS)
      .map(([k, v]) => `SET ${k} TO '${v}';`)
      .join(" "),
  );
  return pg;
}

/**
 * Makes the instance hand over every value as PostgreSQL's text and take parameters as given (the
 * runtime converts both, as for a server). Set on the instance, not passed with each query: PGlite
 * merges a query's parsers into a copy of its own (some 320 of them) for every query, about 70 KB of
 * garbage each, which kept even an idle app's young generation from shrinking.
 */
function leaveValuesAsText(pg: PGlite): void {
  const identity = (v: string) => v;
  const all = (o: object) => Object.fromEntries(Object.keys(o).map((k) => [k, identity]));
  pg.parsers = all(pg.parsers);
  pg.serializers = all(pg.serializers);
}

/** Opens an embedded database. */
export async function openPglite(dbName: string, where: PgliteLocation): Promise<Engine> {
  const idleMs = "dir" in where ? where.closeWhenIdleMs : undefined;
  return new PgliteEngine(dbName, await startInstance(where), () => startInstance(where), idleMs);
}

class PgliteEngine implements Engine {
  readonly types = new TypeCatalog();
  readonly described = new Map<string, Description>();
  private readonly lock: ConnectionLock;
  /** The running instance, or null while closed for idleness. */
  private pg: PGlite | null;
  /** When a session last started or ended (Date.now()). */
  private lastUse = Date.now();
  /** Clients that keep the instance open (a psql connection's settings and prepared statements live in it). */
  private holds = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Closed for good by close(): no session starts it again. */
  private shut = false;
  /** The idle closing in progress, which close() waits for. */
  private closing: Promise<void> = Promise.resolve();

  constructor(
    readonly dbName: string,
    pg: PGlite,
    private readonly restart: () => Promise<PGlite>,
    private readonly idleMs: number | undefined,
  ) {
    this.pg = pg;
    this.lock = new ConnectionLock(
      () =>
        `database ${dbName}: a statement (or a second transaction) is waiting for the embedded database's single connection, ` +
        `which a transaction or acquired connection opened by this same code holds, so it would wait forever (PGlite has one connection): ` +
        `run the statement on the transaction (tx.exec, tx.queryRow, ...) or commit first. ` +
        `(On a PostgreSQL server, as under Encore, it would run on another connection and not see the transaction's uncommitted changes.)`,
    );
    this.watchIdleness();
  }

  async session(holder: Holder): Promise<Session> {
    await this.lock.acquire(holder);
    let pg: PGlite;
    try {
      pg = await this.running();
    } catch (err) {
      this.lock.release(holder);
      throw err;
    }
    this.lastUse = Date.now();
    const { lock } = this;
    const ended = () => (this.lastUse = Date.now());
    return {
      holder,
      async describe(sql) {
        const d = await pg.describeQuery(sql);
        return { paramTypes: d.queryParams.map((p) => p.dataTypeID) };
      },
      async execute(sql, params): Promise<RawResult> {
        const r = await pg.query<(string | null)[]>(sql, params, { rowMode: "array" });
        return { fields: r.fields.map((f) => ({ name: f.name, oid: f.dataTypeID })), rows: r.rows };
      },
      async simple(sql) {
        await pg.exec(sql);
      },
      wire: (message) => pg.execProtocolRaw(message),
      release() {
        ended();
        lock.release(holder);
      },
    };
  }

  hold(): () => void {
    this.holds++;
    let held = true;
    return () => {
      if (held) this.holds--;
      held = false;
    };
  }

  async close(): Promise<void> {
    this.shut = true;
    if (this.idleTimer) clearInterval(this.idleTimer);
    this.idleTimer = null;
    const pg = this.pg;
    this.pg = null;
    await this.closing;
    await pg?.close();
  }

  /** The instance, started again if it was closed for idleness; called holding the connection. */
  private async running(): Promise<PGlite> {
    if (this.pg) return this.pg;
    if (this.shut) throw new Error(`database ${this.dbName} is closed`);
    this.pg = await this.restart();
    this.watchIdleness();
    return this.pg;
  }

  /**
   * Closes the instance once `idleMs` passed since a session last started or ended, none is held or
   * waited for, and no client holds it: an open instance keeps about 20 MiB of WebAssembly memory,
   * and an idle `npm start` should not hold four. Looks three times per `idleMs`.
   */
  private watchIdleness(): void {
    const idleMs = this.idleMs;
    if (idleMs === undefined || this.idleTimer) return;
    this.idleTimer = setInterval(() => {
      if (this.holds > 0 || Date.now() - this.lastUse < idleMs) return;
      // The closer takes the connection, so no session starts while the instance closes.
      const closer = newHolder("connection");
      if (!this.lock.tryAcquire(closer)) return;
      clearInterval(this.idleTimer!);
      this.idleTimer = null;
      const pg = this.pg!;
      this.pg = null;
      this.closing = pg
        .close()
        .catch(() => {})
        .finally(() => {
          this.lock.release(closer);
          releaseWasmMemory();
        });
    }, idleMs / 3);
    this.idleTimer.unref();
  }
}

let template: Promise<Blob> | null = null;

/**
 * A new in-memory cluster. initdb takes seconds, so the first one in a process is dumped (gzip, ~5 MB)
 * into templateDir, keyed by PGlite's version, and later ones (in any process) load that dump instead.
 */
async function freshInMemory(templateDir: string): Promise<PGlite> {
  const file = path.join(templateDir, `pglite-${pgliteVersion()}.tar.gz`);
  if (template === null && fs.existsSync(file)) template = Promise.resolve(new Blob([fs.readFileSync(file)]));
  if (template !== null) return new PGlite({ loadDataDir: await template });
  const pg = new PGlite();
  template = (async () => {
    await pg.waitReady;
    const dump = await pg.dumpDataDir("gzip");
    fs.mkdirSync(templateDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    return dump;
  })();
  template.catch(() => {
    template = null;
  });
  await template;
  return pg;
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const pkg = path.join(path.dirname(entry), "..", "package.json");
  return (JSON.parse(fs.readFileSync(pkg, "utf8")) as { version: string }).version;
}
