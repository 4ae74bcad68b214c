// The gateway's answer to one request: the health check, objects, CORS, routing, auth, decoding,
// the handler, and Encore's response or error body, with one access-log line.
import type http from "node:http";
import { appModel } from "../core/context";
import { detachedFromTransactions } from "../sqldb";
import { rootLogger, formatLine } from "../core/logger";
import { LogLevel } from "../core/napi-enums";
import { stdoutLines } from "./line-sink";
import { newTrace, Request } from "../core/request";
import type { Napi } from "../../model/napi";
import { isObjectPath, serveObject } from "../objects";
import { Router } from "./router";
import { registeredEndpoints, type RegisteredEndpoint } from "./registry";
import { cookieLines, decodeHttpRequest, encodeHttpResponse, parseCookieHeader } from "./http-codec";
import { errorBody, fail, statusByCode, toWireError, WireErrorSignal, type WireError } from "../wire/errors";
import { authenticate, unauthenticatedError, type AuthOutcome, type CredentialSource } from "./gateway";
import { forwardedHeaders } from "./forwarded";
import { invokeTyped, requestMeta, type CallSite } from "./invoke";
import { BodyReader, ResponseWriter } from "./raw";
import { runIsolated, settle } from "../wire/isolate";
import { serveStatic, type StaticEndpoint } from "./static-assets";
import type { CorsPolicy } from "./cors";
import { HEALTHZ_PATH, sendHealth } from "./healthz";
import { announceSpan, channels, type SpanRecorder } from "../core/events";
import { setGatewayHead, withGatewayHead, type GatewayHead } from "./head";

type Routed = RegisteredEndpoint | StaticEndpoint;

/**
 * Every endpoint with a handler and every `api.static` one (the runtime serves those), private ones too:
 * Encore's gateway routes them all, so a private path takes its place in the route tree.
 */
export function buildRouter(): Router<Routed> {
  const router = new Router<Routed>();
  for (const ep of registeredEndpoints()) router.add(ep.model.path, ep.model.methods, ep);
  const app = appModel();
  for (const model of app.endpoints) {
    if (model.staticAssets !== null) router.add(model.path, model.methods, { model, assets: model.staticAssets, root: app.root });
  }
  return router;
}

/** What the app server answers for a private endpoint reached from outside (runtimes/core/src/api/endpoint.rs). */
function refuseIfPrivate(ep: Routed): void {
  if (!ep.model.expose) throw fail("not_found", "endpoint not found", "the endpoint was found, but is not exposed");
}

/**
 * What Encore answers for a body over `bodyLimit`: http_body_util's Limited fails the read with "length
 * limit exceeded", wrapped by axum, and api::Error::invalid_argument formats it with anyhow's `{:?}`,
 * which lists the cause chain (runtimes/core/src/api/endpoint.rs, schema/body.rs, error.rs).
 */
const BODY_TOO_LARGE = "unable to read request body: length limit exceeded\n\nCaused by:\n    length limit exceeded";

const NO_BODY = Buffer.alloc(0);

async function readBody(req: http.IncomingMessage, limit: number | null): Promise<Buffer> {
  // Neither chunked nor a Content-Length above 0: HTTP/1.1 says there is no body, so no stream to read.
  const length = req.headers["content-length"];
  if (req.headers["transfer-encoding"] === undefined && (length === undefined || length === "0")) return NO_BODY;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (limit !== null && size > limit) throw fail("invalid_argument", BODY_TOO_LARGE);
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    // A client that hung up after sending its whole request still made it, as Encore's gateway sees it.
    if (!req.complete || err instanceof WireErrorSignal) throw err;
  }
  return Buffer.concat(chunks);
}

/** The recorder of each HTTP answer's request span, when a listener records spans. */
const answerSpans = new WeakMap<http.ServerResponse, SpanRecorder>();

function sendJson(
  res: http.ServerResponse,
  head: GatewayHead,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  // A client that has gone gets nothing; the request's work (a stored link, a counted click) stands.
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  // Object.assign rather than spreads, which cost microseconds each on Node 20 (see forwarded.ts).
  const own = Object.assign({}, headers, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.writeHead(status, withGatewayHead(head, own));
  res.end(text);
  // The JSON text itself: the trace shows the same text, without serializing the body a second time.
  if (channels.span.hasSubscribers) answerSpans.get(res)?.responsePayload(text);
}

function sendError(res: http.ServerResponse, head: GatewayHead, e: WireError): void {
  if (res.headersSent || res.destroyed) {
    res.destroy();
    return;
  }
  sendJson(res, head, statusByCode[e.code] ?? 500, errorBody(e));
}

/** What the gateway needs for every request: the routes, the CORS rules, whether it is draining. */
export interface Gateway {
  router: Router<Routed>;
  cors: CorsPolicy;
  shuttingDown: boolean;
}

/**
 * The gateway's order (runtimes/core/src/api/gateway/mod.rs): the health check first, then every OPTIONS
 * answered with CORS headers before routing, then the route. Objects are not the gateway's: `encore run`
 * serves them from the daemon's object server, with its own headers. The gateway's own headers go into
 * `head`, which every answer (an error's too) hands to writeHead with its own.
 *
 * Neither this nor handle() is async: under the SDK's AsyncLocalStorage each promise costs a few
 * microseconds, and an async function awaiting another adds two to every request. What they throw
 * before the handler runs, the caller turns into the error answer.
 */
function respond(gw: Gateway, req: http.IncomingMessage, res: http.ServerResponse, head: GatewayHead): Promise<unknown> | void {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname === HEALTHZ_PATH) return sendHealth(res, gw.shuttingDown);
  if (isObjectPath(url.pathname)) return serveObject(url, req, res);
  Object.assign(head, gw.cors.headers(req));
  if (req.method === "OPTIONS") {
    res.writeHead(200, withGatewayHead(head, { "Content-Length": "0" }));
    res.end();
    return;
  }
  return handle(gw.router, url, req, res, head);
}

/** A routed request, as the gateway has read it before the auth handler runs. */
interface RoutedRequest {
  ep: Routed;
  params: Record<string, string>;
  method: string;
  url: URL;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  head: GatewayHead;
  headers: Record<string, string | string[] | undefined>;
  cookies: Record<string, string>;
  trace: Napi.TraceData;
  call: CallSite;
  baseMeta: Napi.RequestMeta;
  span: SpanRecorder | null;
}

function handle(
  router: Router<Routed>,
  url: URL,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  head: GatewayHead,
): Promise<unknown> {
  const method = (req.method ?? "GET").toUpperCase();
  const found = router.find(method, url.pathname);
  // gateway/router.rs: the internal messages name the method and path.
  if (found === null) throw fail("not_found", "endpoint not found", `no such endpoint exists: ${url.pathname}`);
  if (found === "method") throw fail("not_found", "no route for method", `no route for method ${method}: ${url.pathname}`);
  const ep = found.value;
  const headers = forwardedHeaders(req);
  const creds: CredentialSource = {
    headers,
    query: url.searchParams,
    cookies: parseCookieHeader(cookieLines(req.headers.cookie, req.rawHeaders)),
  };
  // One trace for the whole request: the auth handler's call and the endpoint's. The gateway names it
  // on every routed answer unless the handler set the header itself (gateway/mod.rs maybe_add_trace_id_header).
  const trace = newTrace();
  head["X-Encore-Trace-Id"] = trace.traceId;
  const span = channels.span.hasSubscribers
    ? announceSpan({
        kind: "request",
        ids: trace,
        service: ep.model.service,
        endpoint: ep.model.name,
        sensitive: ep.model.sensitive,
        method,
        path: url.pathname,
        pathParams: found.params,
        requestHeaders: headers,
        http: { res, ownAnswer: ep.model.raw || ep.model.staticAssets !== null },
      })
    : null;
  if (span) answerSpans.set(res, span);
  const call: CallSite = { method, path: url.pathname, pathAndQuery: url.pathname + url.search, pathParams: found.params, headers };
  // The auth handler and a raw endpoint see the same metadata: built once (typed endpoints add their payload).
  const baseMeta = requestMeta(ep, trace, call, undefined);
  const routed: RoutedRequest = {
    ep,
    params: found.params,
    method,
    url,
    req,
    res,
    head,
    headers,
    cookies: creds.cookies,
    trace,
    call,
    baseMeta,
    span,
  };
  // authenticate returns a native promise only when the auth handler runs.
  const outcome = authenticate(creds, baseMeta);
  return outcome instanceof Promise ? outcome.then((o) => answer(routed, o)) : answer(routed, outcome);
}

/** Runs the endpoint for an authenticated (or public) request and sends its answer. */
function answer(r: RoutedRequest, outcome: AuthOutcome): Promise<unknown> {
  const { ep, req, res, head } = r;
  if (ep.model.auth && outcome.data === null) throw unauthenticatedError(outcome);

  if ("assets" in ep) {
    refuseIfPrivate(ep);
    setGatewayHead(res, head);
    return serveStatic(req, res, ep, Object.values(r.params)[0]);
  }

  if (ep.model.raw) {
    refuseIfPrivate(ep);
    const writer = new ResponseWriter(res, head);
    const rawReq = new Request({ payload: null, meta: r.baseMeta, authData: outcome.data });
    return runIsolated(() => ep.route.handler(rawReq, writer, new BodyReader(req)));
  }
  return answerTyped(r, ep, outcome);
}

/** A typed endpoint: its request decoded, its handler called, its response encoded as Encore does. */
async function answerTyped(r: RoutedRequest, ep: RegisteredEndpoint, outcome: AuthOutcome): Promise<void> {
  const { req, res, head } = r;
  const body = await readBody(req, ep.model.bodyLimit);
  const payload = decodeHttpRequest(ep.model, {
    method: r.method,
    pathParams: r.params,
    query: r.url.searchParams,
    headers: r.headers,
    cookies: r.cookies,
    body,
  });
  // endpoint.rs decodes the request before it checks that the endpoint is exposed.
  refuseIfPrivate(ep);
  r.span?.requestPayload(payload);
  const result = await invokeTyped(ep, payload, requestMeta(ep, r.trace, r.call, payload), outcome.data);
  const out = encodeHttpResponse(ep.model, result.payload);
  const extra = Object.assign({}, result.extraHeaders, out.headers);
  const status = result.status ?? out.status;
  if (out.body === null) {
    if (res.destroyed) return;
    res.writeHead(status, withGatewayHead(head, extra));
    res.end();
  } else {
    sendJson(res, head, status, out.body, extra);
  }
}

/** One access-log line per request, except under tests unless LOG_REQUESTS asks. */
const logRequests = process.env.NODE_ENV !== "test" || Boolean(process.env.LOG_REQUESTS);

/** Writes a request's access-log line (a module function: tsx names every named closure as it is made). */
function logRequest(req: http.IncomingMessage, res: http.ServerResponse, started: bigint): void {
  if (!logRequests) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  stdoutLines.write(formatLine(LogLevel.Info, "request", { method: req.method, path: req.url, status: res.statusCode, ms: ms.toFixed(1) }));
}

/**
 * Lets go of a request its handler answered before reading it to the end (a refused upload): once the
 * answer is out, the rest is read and dropped, as node:http drops a body nobody read, so the connection
 * serves the client's next request instead of stalling behind the unread bytes.
 */
function releaseUnread(req: http.IncomingMessage, res: http.ServerResponse): void {
  const drop = () => {
    if (req.complete) return;
    req.removeAllListeners("data");
    req.resume();
  };
  if (res.writableFinished) drop();
  else res.once("finish", drop);
}

/** One request: handled, errors turned into Encore's error body, and one access-log line. */
export function requestListener(gw: Gateway): http.RequestListener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const head: GatewayHead = {};
    // One then() rather than catch().finally(), which costs four promises more on every request.
    settle(() => detachedFromTransactions(() => respond(gw, req, res, head))).then(
      () => {
        logRequest(req, res, started);
        if (!req.complete) releaseUnread(req, res);
      },
      (e: unknown) => {
        if (!req.complete) releaseUnread(req, res);
        try {
          const wire = toWireError(e);
          if (channels.span.hasSubscribers) answerSpans.get(res)?.error(wire);
          // Routing errors have internal messages too; only an internal error is the app's fault.
          if (wire.code === "internal" && wire.internalMessage)
            rootLogger.log(null, LogLevel.Error, `${req.method} ${req.url}: ${wire.internalMessage}`, e instanceof Error ? e : undefined);
          sendError(res, head, wire);
        } finally {
          logRequest(req, res, started);
        }
      },
    );
  };
}
