// `api.static` endpoints, served as Encore's runtime serves them (runtimes/core/src/api/static_assets.rs,
// which wraps tower-http's ServeDir): the path parameter names a file under `dir`; a directory
// serves its index.html, or a 307 to the same path with a slash (Location relative to `dir`, as
// ServeDir builds it); GET and HEAD with Range and Last-Modified/If-Modified-Since; `headers` on
// every file answer; a miss serves `notFound` with `notFoundStatus` (a 200 one like any asset, any
// other as the complete file without validators) or, without `notFound`, 404 "file not found".
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import mime from "mime-types";
import send from "send";
import type { EndpointModel, StaticAssetsModel } from "../../model/app-model";
import { fail } from "../wire/errors";

/** An exposed `api.static` endpoint and where its files are on disk. */
export interface StaticEndpoint {
  model: EndpointModel;
  assets: StaticAssetsModel;
  root: string;
}

/** The content type ServeDir would send: the extension's type, else application/octet-stream. */
function contentType(file: string): string {
  return mime.lookup(file) || "application/octet-stream";
}

function addConfiguredHeaders(res: http.ServerResponse, assets: StaticAssetsModel): void {
  for (const [name, values] of Object.entries(assets.headers)) for (const v of values) res.appendHeader(name, v);
}

/** Streams one file with conditional GET and Range support; "missing" when there is no such file. */
function sendFile(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ep: StaticEndpoint,
  file: string,
  root: string | undefined,
): Promise<"served" | "missing"> {
  return new Promise((resolve, reject) => {
    const stream = send(req, file, {
      root,
      index: ["index.html"],
      dotfiles: "allow",
      etag: false,
      cacheControl: false,
      lastModified: true,
    });
    stream.on("headers", (_res: http.ServerResponse, filePath: string) => {
      res.setHeader("Content-Type", contentType(filePath));
      addConfiguredHeaders(res, ep.assets);
    });
    stream.on("directory", () => {
      // ServeDir redirects with the path it was given, which lacks the endpoint's prefix.
      addConfiguredHeaders(res, ep.assets);
      res.writeHead(307, { Location: `${file}/` });
      res.end();
    });
    stream.on("error", (err: { status?: number; headers?: Record<string, string> }) => {
      const status = err.status ?? 500;
      // ServeDir answers an unsafe or undecodable path as a missing file.
      if (status === 404 || status === 403 || status === 400) return resolve("missing");
      if (status === 412 || status === 416) {
        res.writeHead(status, err.headers ?? {});
        res.end();
        return;
      }
      reject(fail("internal", "failed to serve static asset"));
    });
    res.once("close", () => resolve("served"));
    res.once("finish", () => resolve("served"));
    stream.pipe(res);
  });
}

/** The URL-encoded form send expects of a path it decodes itself. */
function encodePath(p: string): string {
  return p.split("/").map(encodeURIComponent).join("/");
}

/** A custom error page: the whole file under the configured status, never a validator or a range. */
async function sendErrorPage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ep: StaticEndpoint,
  file: string,
  status: number,
): Promise<void> {
  let body: Buffer;
  try {
    body = await fs.promises.readFile(file);
  } catch {
    throw fail("not_found", "file not found");
  }
  addConfiguredHeaders(res, ep.assets);
  res.writeHead(status, { "Content-Type": contentType(file), "Content-Length": body.length });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** Serves GET/HEAD for a static endpoint; `param` is its dynamic segment's value (absent: the dir itself). */
export async function serveStatic(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ep: StaticEndpoint,
  param: string | undefined,
): Promise<void> {
  const file = encodePath("/" + (param ?? ""));
  if ((await sendFile(req, res, ep, file, path.join(ep.root, ep.assets.dir))) === "served") return;
  const notFound = ep.assets.notFound;
  if (notFound === null) throw fail("not_found", "file not found");
  const status = ep.assets.notFoundStatus ?? 404;
  const abs = path.join(ep.root, notFound);
  if (status !== 200) return sendErrorPage(req, res, ep, abs, status);
  if ((await sendFile(req, res, ep, encodePath(abs), undefined)) === "missing") throw fail("not_found", "file not found");
}
