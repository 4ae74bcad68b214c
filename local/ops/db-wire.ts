// The embedded databases over PostgreSQL's wire protocol on 127.0.0.1, one port for all of them (the
// startup message's database picks one), as Encore's daemon proxies its local clusters on :9500
// (cli/daemon/db.go dbConnectLocal, cli/cmd/encore/daemon/daemon.go): what `npm run db -- shell` and
// `conn-uri` connect psql and other tools to. PGlite has one connection, so a client takes it from
// its first message until PostgreSQL reports it idle again (ReadyForQuery "I"): the app's statements
// wait while a client's transaction is open, and never run inside it.
import net from "node:net";
import { SESSION_SETTINGS, type Engine, type Session } from "../runtime/sqldb/engine";
import { newHolder } from "../runtime/sqldb/lock";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

export interface WireServer {
  port: number;
  close(): Promise<void>;
}

/** A backend message: type byte, then its length (counting itself) and body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstr = (s: string) => Buffer.from(`${s}\0`, "utf8");

/** ErrorResponse with severity FATAL, SQLSTATE and message. */
function fatal(code: string, text: string): Buffer {
  return message("E", Buffer.concat([cstr("SFATAL"), cstr("VFATAL"), cstr(`C${code}`), cstr(`M${text}`), Buffer.from([0])]));
}

/** The startup message's parameters (user, database, application_name, ...). */
function startupParams(body: Buffer): Record<string, string> {
  const parts = body.subarray(8).toString("utf8").split("\0");
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ""; i += 2) out[parts[i]] = parts[i + 1];
  return out;
}

/** The status of the last ReadyForQuery in a backend answer ("I" idle, "T" in a transaction, "E" failed one), or null. */
export function lastReadyStatus(answer: Uint8Array): string | null {
  let status: string | null = null;
  const buf = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  for (let at = 0; at + 5 <= buf.length;) {
    const len = buf.readInt32BE(at + 1);
    if (buf[at] === 0x5a && len === 5 && at + 5 < buf.length) status = String.fromCharCode(buf[at + 5]);
    at += 1 + len;
  }
  return status;
}

/** One client connection: its startup, then its messages handed to the database's single connection. */
function serveClient(socket: net.Socket, engineOf: (db: string) => Promise<Engine> | null): void {
  let buffered = Buffer.alloc(0);
  let engine: Engine | null = null;
  let session: Session | null = null;
  let unhold = () => {};
  let started = false;
  let chain = Promise.resolve();

  /** Lets go of the connection; when the client leaves, its open transaction and its settings go too. */
  const release = async (leaving: boolean) => {
    const s = session ?? (leaving && engine ? await engine.session(newHolder("connection")) : null);
    session = null;
    if (!s) return;
    if (leaving) {
      const settings = Object.entries(SESSION_SETTINGS).map(([k, v]) => `SET ${k} TO '${v}';`);
      await s.simple("ROLLBACK").catch(() => {});
      await s.simple(`RESET ALL; ${settings.join(" ")}`).catch(() => {});
    }
    s.release();
  };

  const startup = async (body: Buffer): Promise<void> => {
    const params = startupParams(body);
    const db = params.database ?? params.user ?? "";
    const opening = engineOf(db);
    if (opening === null) {
      socket.end(fatal("3D000", `database "${db}" does not exist`));
      return;
    }
    engine = await opening;
    unhold = engine.hold?.() ?? unhold;
    const s = await engine.session(newHolder("connection"));
    let version = "";
    try {
      version = (await s.execute("SELECT current_setting('server_version')", [])).rows[0][0] ?? "";
    } finally {
      s.release();
    }
    const status = (k: string, v: string) => message("S", Buffer.concat([cstr(k), cstr(v)]));
    const key = Buffer.alloc(8);
    key.writeInt32BE(process.pid, 0);
    socket.write(
      Buffer.concat([
        message("R", Buffer.from([0, 0, 0, 0])),
        status("server_version", version),
        status("server_encoding", "UTF8"),
        status("client_encoding", "UTF8"),
        status("DateStyle", "ISO, MDY"),
        status("TimeZone", "UTC"),
        status("integer_datetimes", "on"),
        status("standard_conforming_strings", "on"),
        status("application_name", params.application_name ?? ""),
        message("K", key),
        message("Z", Buffer.from("I")),
      ]),
    );
    started = true;
  };

  /** Hands complete messages to the database, holding its connection until it is idle again. */
  const forward = async (messages: Buffer): Promise<void> => {
    session ??= await engine!.session(newHolder("connection"));
    const answer = await session.wire!(messages);
    if (!socket.destroyed) socket.write(answer);
    if (lastReadyStatus(answer) === "I") await release(false);
  };

  const take = (): void => {
    for (;;) {
      if (!started) {
        if (buffered.length < 8) return;
        const len = buffered.readInt32BE(0);
        const code = buffered.readInt32BE(4);
        if (buffered.length < len) return;
        const body = buffered.subarray(0, len);
        buffered = buffered.subarray(len);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write("N");
        else if (code === CANCEL_REQUEST) socket.end();
        else if (code === PROTOCOL_3) {
          chain = chain.then(() => startup(body));
          // Messages after the startup wait for it in the chain.
          started = true;
        } else socket.end(fatal("08P01", `unsupported protocol ${code >> 16}.${code & 0xffff}`));
        continue;
      }
      // Every complete message now in the buffer, in one hand-over (an extended-protocol batch stays whole).
      let end = 0;
      let terminate = false;
      while (end + 5 <= buffered.length) {
        const len = buffered.readInt32BE(end + 1);
        if (end + 1 + len > buffered.length) break;
        if (buffered[end] === 0x58) terminate = true; // Terminate: the client is leaving
        end += 1 + len;
      }
      if (end === 0) return;
      const batch = Buffer.from(buffered.subarray(0, end));
      buffered = buffered.subarray(end);
      chain = chain.then(() => (terminate ? void socket.end() : forward(batch)));
      return;
    }
  };

  socket.on("data", (d: Buffer) => {
    buffered = Buffer.concat([buffered, d]);
    take();
    chain = chain.catch((err: Error) => {
      socket.end(fatal("XX000", err.message));
    });
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    // A database closed meanwhile (npm start stopping) has nothing of the client's left to clean up.
    chain = chain
      .then(() => release(true))
      .catch(() => {})
      .finally(() => unhold());
  });
}

/** Serves the databases `engineOf` opens (null: not declared) on 127.0.0.1:port (0: any free port). */
export async function serveDatabases(port: number, engineOf: (db: string) => Promise<Engine> | null): Promise<WireServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    serveClient(socket, engineOf);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
