// The gateway's HTTP server: listens, hands each request to respond.ts, and stops as Encore's
// gateway does (health check failing first, then draining, then cutting what is left).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { appModel, appRoot, setApiBaseUrl } from "../core/context";
import { buildRouter, requestListener, type Gateway } from "./respond";
import { CorsPolicy, corsModeFromEnv } from "./cors";
import { readGlobalCors } from "../../compiler/base/appfile";

export interface LocalServer {
  baseUrl: string;
  /** Stops listening, then waits for requests in flight; after `graceMs` their connections are cut. */
  close(graceMs?: number): Promise<void>;
}

/**
 * How long a stopping server keeps accepting requests while /__encore/healthz already answers 503, so
 * load balancers can take it out: ENCORE_K8S_GRACE_TERMINATION_SECONDS minus the total shutdown time,
 * 10 s under `encore run` (runtimes/core/src/shutdown.rs, cli/daemon/run/runtime_config2.go).
 */
function keepAcceptingMs(): number {
  const secs = Number(process.env.ENCORE_K8S_GRACE_TERMINATION_SECONDS);
  return Number.isInteger(secs) && secs > 10 ? (secs - 10) * 1000 : 0;
}

/**
 * How long an idle keep-alive connection stays open. Node's 5 s default lets the server close a
 * connection just as a client reuses it after the event loop was busy for seconds (a QR code, a
 * scrypt hash on a loaded machine), which the client sees as a reset request.
 */
const IDLE_KEEP_ALIVE_MS = 30_000;

/** Serves every registered exposed endpoint on host:port (port 0 picks a free one). */
export async function startLocalServer(port: number, host = "127.0.0.1"): Promise<LocalServer> {
  const gw: Gateway = {
    router: buildRouter(),
    cors: new CorsPolicy(appModel(), readGlobalCors(appRoot), corsModeFromEnv()),
    shuttingDown: false,
  };
  const listener = requestListener(gw);
  let closing = false;
  const server = http.createServer({ keepAliveTimeout: IDLE_KEEP_ALIVE_MS }, (req, res) => {
    // Once closing, each connection ends after its current answer: a client that keeps its
    // connection busy would otherwise keep a stopping server serving (close() waits for it).
    if (closing) res.setHeader("Connection", "close");
    listener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const baseUrl = `http://${host}:${addr.port}`;
  setApiBaseUrl(baseUrl);
  return {
    baseUrl,
    close: async (graceMs = Infinity) => {
      gw.shuttingDown = true;
      const grace = keepAcceptingMs();
      if (grace > 0) await new Promise((resolve) => setTimeout(resolve, grace));
      await new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        server.closeIdleConnections();
        if (Number.isFinite(graceMs)) setTimeout(() => server.closeAllConnections(), graceMs).unref();
      });
    },
  };
}
