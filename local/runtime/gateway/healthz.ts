// The gateway's health check (runtimes/core/src/api/encore_routes/healthz.rs, answered before routing and
// CORS in gateway/mod.rs `request_filter`): 200 "ok" while serving, 503 "shutting_down" once a shutdown began.
import type http from "node:http";
import { appMeta } from "../core/meta";

/** The one path Encore's gateway answers itself, for any method. */
export const HEALTHZ_PATH = "/__encore/healthz";

export function sendHealth(res: http.ServerResponse, shuttingDown: boolean): void {
  const meta = appMeta();
  const details = {
    app_slug: meta.appId,
    env_name: meta.environment.name,
    app_revision: meta.build.revision,
    encore_compiler: "",
    deploy_id: meta.deploy.id,
    checks: [],
    enabled_experiments: [],
  };
  const body = JSON.stringify(
    shuttingDown
      ? { code: "shutting_down", message: "Service is shutting down", details }
      : { code: "ok", message: "Your Encore app is up and running!", details },
  );
  res.writeHead(shuttingDown ? 503 : 200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
