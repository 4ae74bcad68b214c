// The local development dashboard (Encore's :9400): a loopback-only HTTP server with a JSON API over
// the tracer, the app model and the runtime's infrastructure, live updates over server-sent events,
// and the UI in ./ui.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { appModel, apiBaseUrl } from "../../runtime/core/context";
import { tracer } from "../trace";
import { summarize } from "../trace/tracer";
import { catalogOf, flowOf } from "./catalog";
import { callEndpoint, explorerCallProblem, type ExplorerCall } from "./explorer";
import { listObjects, migrationStatus, pubsubView, readObject, runCronNow } from "./infra";
import { nextJobRun } from "../../runtime/cron";
import type { OutputCapture } from "./output";
import { staticFile } from "./static";
import { BatchWatch } from "./batches";

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

function routes(output: OutputCapture | null, batches: BatchWatch): [string, RegExp, Handler][] {
  const started = Date.now();
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
    ["GET", /^\/api\/traces$/, (_r, url) => tracer.list(Number(url.searchParams.get("limit") ?? 100))],
    ["DELETE", /^\/api\/traces$/, () => (tracer.clear(), { ok: true })],
    [
      "GET",
      /^\/api\/traces\/([0-9a-v]+)$/,
      (_r, _u, [id]) => {
        const trace = tracer.get(id);
        if (!trace) throw new HttpError(404, `trace ${id} is not in memory (it may have been evicted from the ring)`);
        return { trace, linked: tracer.linked(id) };
      },
    ],
    ["GET", /^\/api\/catalog$/, () => catalogOf(appModel())],
    ["GET", /^\/api\/flow$/, () => flowOf(appModel())],
    [
      "POST",
      /^\/api\/call$/,
      async (req) => {
        const call = (await readJson(req)) as ExplorerCall;
        const problem = explorerCallProblem(call);
        if (problem) throw new HttpError(400, problem);
        return callEndpoint(call);
      },
    ],
    ["GET", /^\/api\/migrations$/, () => migrationStatus(appModel())],
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
    tracer.listen((n) => send("trace", summarize(n.trace))),
    output?.listen((line) => send("log", line)) ?? (() => {}),
    batches.listen(() => send("batches", batches.state())),
  ];
  const ping = setInterval(() => res.write(": ping\n\n"), 15_000);
  req.on("close", () => {
    clearInterval(ping);
    stops.forEach((s) => s());
  });
}

/** Starts the dashboard on 127.0.0.1:port (0: any free port). */
export async function startDashboard(port: number, output: OutputCapture | null = null): Promise<Dashboard> {
  const batches = new BatchWatch();
  const table = routes(output, batches);
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
        for (const res of sockets) res.end();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
