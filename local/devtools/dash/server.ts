// The local development dashboard (Encore's :9400): a loopback-only HTTP server with a JSON API over
// the tracer, the app model and the runtime's infrastructure, live updates over server-sent events,
// and the UI in ./ui.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { appModel, apiBaseUrl } from "../../runtime/core/context";
import { tracer } from "../trace";
import type { TraceFilter } from "../trace/tracer";
import { TraceStore } from "../trace/store";
import type { ExplorerCall } from "./explorer";
import { listObjects, migrationStatus, pubsubView, readObject, runCronNow } from "./infra";
import { nextJobRun } from "../../runtime/cron";
import type { OutputCapture } from "./output";
import { staticFile } from "./static";
import { listTables, NotFound, PAGE_MAX, runQuery, tableRows } from "./sql";
import { BatchWatch } from "./batches";

/** The disk the kept traces may take (LOCAL_TRACE_RING of them at most). */
const TRACE_BYTES = 32 * 1024 * 1024;

export interface Dashboard {
  url: string;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (req: http.IncomingMessage, url: URL, params: string[]) => Promise<unknown> | unknown;

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Cache-Control": "no-store" });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 2 * 1024 * 1024) throw new HttpError(413, "request body over 2 MiB");
    chunks.push(c as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
}

/** Only loopback host names: a page on another site cannot reach the dashboard by DNS rebinding. */
function loopbackHost(host: string | undefined): boolean {
  const name = (host ?? "").replace(/:\d+$/, "");
  return name === "127.0.0.1" || name === "localhost" || name === "[::1]";
}

/** Runs a database explorer call: an undeclared database or table is 404, a statement PostgreSQL refuses 400 with its message. */
async function sqlCall<T>(db: string, fn: () => Promise<T>): Promise<T> {
  if (!appModel().databases.some((d) => d.name === db)) throw new HttpError(404, `database ${db} is not declared`);
  try {
    return await fn();
  } catch (e) {
    if (e instanceof NotFound) throw new HttpError(404, e.message);
    const pg = e as { code?: string; message?: string };
    if (typeof pg.code === "string" && /^[0-9A-Z]{5}$/.test(pg.code)) throw new HttpError(400, `${pg.message} (SQLSTATE ${pg.code})`);
    throw e;
  }
}

/** The list's filter from the query string (?service=&endpoint=&status=&q=). */
function traceFilter(url: URL): TraceFilter {
  const p = (name: string) => url.searchParams.get(name) || undefined;
  return { service: p("service"), endpoint: p("endpoint"), status: p("status"), q: p("q") };
}

/**
 * Keeps finished traces in `store` and brings back an earlier run's the first time the traces are
 * asked for (not at start: an idle npm start holds none of them in memory).
 */
interface KeptTraces {
  restore(): void;
  clear(): void;
  stop(): void;
}

function persistTraces(store: TraceStore): KeptTraces {
  let restored = false;
  const stop = tracer.listen((n) => {
    if (n.type === "span-end" && tracer.finished(n.trace)) store.save(n.trace);
  });
  return {
    restore() {
      if (restored) return;
      restored = true;
      tracer.restore(store.load());
    },
    clear: () => store.clear(),
    stop() {
      stop();
      store.close();
    },
  };
}

function routes(output: OutputCapture | null, batches: BatchWatch, kept: KeptTraces | null): [string, RegExp, Handler][] {
  const started = Date.now();
  const restore = () => kept?.restore();
  return [
    [
      "GET",
      /^\/api\/status$/,
      () => {
        const m = appModel();
        return {
          apiBaseUrl: apiBaseUrl(),
          pid: process.pid,
          startedAt: started,
          uptimeMs: Date.now() - started,
          services: m.services.length,
          endpoints: m.endpoints.length,
          tracing: tracer.options,
          /** The process's CPU time so far (µs): what the tracing benchmark compares. */
          cpuUsage: process.cpuUsage(),
        };
      },
    ],
    ["GET", /^\/api\/logs$/, () => output?.recent() ?? []],
    [
      "GET",
      /^\/api\/traces$/,
      (_r, url) => {
        restore();
        return tracer.list(Number(url.searchParams.get("limit") ?? 100), traceFilter(url));
      },
    ],
    [
      "DELETE",
      /^\/api\/traces$/,
      () => {
        restore();
        tracer.clear();
        kept?.clear();
        return { ok: true };
      },
    ],
    [
      "GET",
      /^\/api\/traces\/([0-9a-v]+)$/,
      (_r, _u, [id]) => {
        restore();
        const trace = tracer.get(id);
        if (!trace) throw new HttpError(404, `trace ${id} is not in memory (it may have been evicted from the ring)`);
        return { trace, linked: tracer.linked(id) };
      },
    ],
    // The catalog and the explorer load on first use: an idle `npm start` does not hold them.
    ["GET", /^\/api\/catalog$/, async () => (await import("./catalog")).catalogOf(appModel())],
    ["GET", /^\/api\/flow$/, async () => (await import("./catalog")).flowOf(appModel())],
    [
      "POST",
      /^\/api\/call$/,
      async (req) => {
        const call = (await readJson(req)) as ExplorerCall;
        const { explorerCallProblem, callEndpoint } = await import("./explorer");
        const problem = explorerCallProblem(call);
        if (problem) throw new HttpError(400, problem);
        return callEndpoint(call);
      },
    ],
    ["GET", /^\/api\/migrations$/, () => migrationStatus(appModel())],
    ["GET", /^\/api\/databases\/([\w-]+)\/tables$/, (_r, _u, [db]) => sqlCall(db, () => listTables(db))],
    [
      "GET",
      /^\/api\/databases\/([\w-]+)\/tables\/([^/]+)\/rows$/,
      (_r, url, [db, table]) => {
        const offset = Math.max(0, Math.floor(Number(url.searchParams.get("offset") ?? 0)) || 0);
        const limit = Math.min(PAGE_MAX, Math.max(1, Math.floor(Number(url.searchParams.get("limit") ?? 50)) || 50));
        return sqlCall(db, () => tableRows(db, decodeURIComponent(table), offset, limit));
      },
    ],
    [
      "POST",
      /^\/api\/databases\/([\w-]+)\/query$/,
      async (req, _u, [db]) => {
        const { sql } = (await readJson(req)) as { sql?: unknown };
        if (typeof sql !== "string" || sql.trim() === "") throw new HttpError(400, "sql must be a statement");
        return sqlCall(db, () => runQuery(db, sql));
      },
    ],
    ["GET", /^\/api\/buckets$/, () => appModel().buckets],
    [
      "GET",
      /^\/api\/buckets\/([\w-]+)\/objects$/,
      (_r, url, [bucket]) => {
        if (!appModel().buckets.some((b) => b.name === bucket)) throw new HttpError(404, `bucket ${bucket} is not declared`);
        return listObjects(bucket, url.searchParams.get("prefix") ?? "", Math.min(Number(url.searchParams.get("limit") ?? 200), 1000));
      },
    ],
    ["GET", /^\/api\/cron$/, () => appModel().cronJobs.map((j) => ({ ...j, nextRun: nextJobRun(j, new Date()).toISOString() }))],
    [
      "POST",
      /^\/api\/cron\/([\w-]+)\/run$/,
      (_r, _u, [id]) => {
        if (!appModel().cronJobs.some((j) => j.id === id)) throw new HttpError(404, `cron job ${id} is not declared`);
        return runCronNow(id);
      },
    ],
    ["GET", /^\/api\/pubsub$/, () => pubsubView(appModel())],
    ["GET", /^\/api\/batches$/, () => batches.state()],
  ];
}

/** Serves an object's bytes (the object browser's preview and download). */
async function serveObject(res: http.ServerResponse, bucket: string, key: string): Promise<void> {
  if (!appModel().buckets.some((b) => b.name === bucket)) throw new HttpError(404, `bucket ${bucket} is not declared`);
  const obj = await readObject(bucket, key);
  if (!obj) throw new HttpError(404, `object ${key} not found in ${bucket}`);
  res.writeHead(200, {
    "Content-Type": obj.contentType,
    "Content-Length": obj.data.length,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox",
  });
  res.end(obj.data);
}

/**
 * Server-sent events: `trace` (a trace's summary when one of its spans starts or ends), `log` lines, and
 * `batches` (every batch queue's state after a change).
 */
function stream(req: http.IncomingMessage, res: http.ServerResponse, output: OutputCapture | null, batches: BatchWatch): void {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store", Connection: "keep-alive" });
  res.write(": connected\n\n");
  const send = (event: string, data: unknown): void => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const stops = [
    tracer.listen((n) => {
      send("trace", tracer.summary(n.trace));
      // A delivery adds rows to the waterfall of the trace that published it.
      const parent = n.trace.parentTraceId && tracer.get(n.trace.parentTraceId);
      if (parent) send("trace", tracer.summary(parent));
    }),
    output?.listen((line) => send("log", line)) ?? (() => {}),
    batches.listen(() => send("batches", batches.state())),
  ];
  const ping = setInterval(() => res.write(": ping\n\n"), 15_000);
  req.on("close", () => {
    clearInterval(ping);
    stops.forEach((s) => s());
  });
}

/** Starts the dashboard on 127.0.0.1:port (0: any free port); with `traceDir`, finished traces are kept there across restarts. */
export async function startDashboard(port: number, output: OutputCapture | null = null, traceDir?: string): Promise<Dashboard> {
  const batches = new BatchWatch();
  const kept = traceDir ? persistTraces(new TraceStore(traceDir, { maxTraces: tracer.options.capacity, maxBytes: TRACE_BYTES })) : null;
  const table = routes(output, batches, kept);
  const sockets = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    void (async () => {
      if (!loopbackHost(req.headers.host)) throw new HttpError(403, "the dashboard answers loopback host names only");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const method = req.method ?? "GET";
      if (method === "GET" && url.pathname === "/api/stream") {
        sockets.add(res);
        res.on("close", () => sockets.delete(res));
        return stream(req, res, output, batches);
      }
      const object = /^\/api\/buckets\/([\w-]+)\/objects\/(.+)$/.exec(url.pathname);
      if (method === "GET" && object) return serveObject(res, object[1], decodeURIComponent(object[2]));
      for (const [m, re, handler] of table) {
        const match = re.exec(url.pathname);
        if (!match) continue;
        if (m !== method) throw new HttpError(405, `${method} is not allowed on ${url.pathname}`);
        // A JSON content type cannot be sent cross-site without a preflight, which this server never grants.
        if (method !== "GET" && !(req.headers["content-type"] ?? "").startsWith("application/json")) {
          throw new HttpError(415, "send Content-Type: application/json");
        }
        return sendJson(res, 200, await handler(req, url, match.slice(1)));
      }
      const file = method === "GET" ? staticFile(url.pathname) : null;
      if (!file) throw new HttpError(404, `nothing at ${url.pathname}`);
      const data = await fs.promises.readFile(file.file);
      res.writeHead(200, { "Content-Type": file.type, "Content-Length": data.length, "Cache-Control": "no-cache" });
      res.end(data);
    })().catch((e) => {
      const status = e instanceof HttpError ? e.status : 500;
      if (!res.headersSent) sendJson(res, status, { error: e instanceof Error ? e.message : String(e) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        batches.close();
        kept?.stop();
        for (const res of sockets) res.end();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
