// HTTP access to bucket objects on the local API server, standing in for the object server
// `encore run` starts (cli/daemon/objects/public.go): GET/HEAD of public objects, and GET/HEAD/PUT
// with a signed URL for any bucket. Errors use Encore's {code, message, details} body.
import type http from "node:http";
import { errorBody, statusByCode, wireError } from "../wire/errors";
import { keyProblem } from "./store";
import { OBJECTS_PATH } from "./paths";
import type { BucketContext } from "./bucket";
import type { UrlSigner } from "./signing";
import { SIGNATURE_PARAM } from "./signing";

type ErrorCode = "not_found" | "invalid_argument" | "permission_denied";

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Content-Type, Content-Length, ETag",
};

function sendError(res: http.ServerResponse, code: ErrorCode, message: string): void {
  // The daemon's object server is not the app's runtime: ENCORE_API_INCLUDE_INTERNAL_MESSAGE does not reach it.
  const text = JSON.stringify(errorBody(wireError(code, message), false));
  res.writeHead(statusByCode[code], { ...CORS, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

/** Bucket and key from /__local/objects/<bucket>/<key...>, or null when the path is malformed. */
function parseTarget(pathname: string): { bucket: string; key: string } | null {
  const [bucket, ...segments] = pathname.slice(OBJECTS_PATH.length).split("/");
  try {
    return { bucket: decodeURIComponent(bucket), key: segments.map(decodeURIComponent).join("/") };
  } catch {
    return null;
  }
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What serving needs of the buckets: a declared bucket by name, or null, and the signer of their URLs. */
export interface ObjectSource {
  bucket(name: string): BucketContext | null;
  readonly signer: UrlSigner;
}

/** Answers a request whose parsed `url` is under OBJECTS_PATH (isObjectPath): the caller checks, once. */
export async function serveObjectRequest(
  objects: ObjectSource,
  url: URL,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const method = req.method ?? "GET";

  if (method === "OPTIONS") {
    res.writeHead(204, { ...CORS, "Access-Control-Allow-Methods": "GET, HEAD, PUT", "Access-Control-Allow-Headers": "Content-Type" });
    res.end();
    return;
  }
  if (method !== "GET" && method !== "HEAD" && method !== "PUT") {
    sendError(res, "invalid_argument", "method not allowed");
    return;
  }

  const target = parseTarget(url.pathname);
  if (target === null) {
    sendError(res, "invalid_argument", "malformed object path");
    return;
  }
  const problem = keyProblem(target.key);
  if (problem) {
    sendError(res, "invalid_argument", `invalid object name: it ${problem}`);
    return;
  }
  const bucket = objects.bucket(target.bucket);
  if (bucket === null) {
    sendError(res, "not_found", "object not found");
    return;
  }

  if (url.searchParams.has(SIGNATURE_PARAM)) {
    const verdict = objects.signer.verify(method === "PUT" ? "PUT" : "GET", bucket.name, target.key, url.searchParams);
    if (verdict !== "valid") {
      sendError(res, "permission_denied", verdict === "expired" ? "signed URL has expired" : "invalid signed URL");
      return;
    }
  } else if (method === "PUT") {
    sendError(res, "permission_denied", "uploading needs a signed upload URL (Bucket.signedUploadUrl)");
    return;
  } else if (!bucket.isPublic) {
    // Without a signature a private object is indistinguishable from a missing one.
    sendError(res, "not_found", "object not found");
    return;
  }

  if (method === "PUT") {
    const attrs = await bucket.store.put(target.key, await readBody(req), req.headers["content-type"], false);
    res.writeHead(200, { ...CORS, ETag: attrs.etag, "Content-Length": 0 });
    res.end();
    return;
  }

  const found =
    method === "GET"
      ? await bucket.store.get(target.key)
      : await bucket.store.attrs(target.key).then((attrs) => attrs && { attrs, data: null });
  if (found === null) {
    sendError(res, "not_found", "object not found");
    return;
  }
  const headers = { ...CORS, ETag: found.attrs.etag };
  if (req.headers["if-none-match"] === found.attrs.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, "Content-Type": found.attrs.contentType, "Content-Length": found.attrs.size });
  res.end(found.data ?? undefined);
}
