// Object storage for the local runtime: buckets are directories of files (store.ts), served
// over HTTP by the API server so publicUrl and signed URLs work in a browser (serve.ts).
// Under `npm start` objects persist in <data dir>/objects/<bucket>/; in tests each process gets a fresh,
// empty store, like the in-memory store of `encore test`.
import fs from "node:fs";
import path from "node:path";
import type http from "node:http";
import { objectsDir } from "../../model/layout.mjs";
import { apiBaseUrl, appModel, testMode, testScratchDir } from "../core/context";
import { LocalObjects } from "./local";
import type { Bucket } from "./bucket";

export { Bucket, BucketObject, ListIterator, ListEntry, ObjectAttrs } from "./bucket";
export { TypedObjectError } from "./errors";
export { isObjectPath } from "./paths";

/** Survives vitest re-evaluating this module for each test file of a worker process. */
const WIPED = Symbol.for("encore-local.objects.test-store-wiped");

let root: string | null = null;

function objectsRoot(): string {
  if (root !== null) return root;
  if (!testMode) return (root = objectsDir);
  root = path.join(testScratchDir(), "objects");
  const marks = globalThis as { [WIPED]?: boolean };
  if (!marks[WIPED]) {
    // The scratch directory is named after the pid, which an earlier run may have used.
    fs.rmSync(root, { recursive: true, force: true });
    marks[WIPED] = true;
  }
  return root;
}

const objects = new LocalObjects({ buckets: () => appModel().buckets, root: objectsRoot, baseUrl: apiBaseUrl });

export function openBucket(name: string): Bucket {
  return objects.openBucket(name);
}

/** Serves GET/HEAD (and signed PUT) on /__local/objects/<bucket>/<key>, the paths isObjectPath accepts. */
export function serveObject(url: URL, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  return objects.serve(url, req, res);
}
