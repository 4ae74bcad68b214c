// The app's buckets as the local runtime provides them: declared in the app model, stored under
// one directory, reachable over HTTP on the API server at /__local/objects/<bucket>/<key>.
import path from "node:path";
import type http from "node:http";
import type { BucketModel } from "../../model/app-model";
import { Bucket, type BucketContext } from "./bucket";
import { BucketStore } from "./store";
import { UrlSigner } from "./signing";
import { serveObjectRequest } from "./serve";
import { objectPath } from "./paths";

/** What the buckets need from the runtime; injected so tests can use a fake model and a temp dir. */
export interface LocalObjectsDeps {
  buckets(): BucketModel[];
  /** Directory holding one subdirectory per bucket; asked for on first use. */
  root(): string;
  /** The API server's base URL, asked for each time a URL is built (the port is known late). */
  baseUrl(): string;
}

export class LocalObjects {
  readonly signer = new UrlSigner();
  private contexts = new Map<string, BucketContext>();

  constructor(private readonly deps: LocalObjectsDeps) {}

  openBucket(name: string): Bucket {
    const ctx = this.bucket(name);
    if (!ctx) throw new Error(`bucket "${name}" is not declared in the app (no new Bucket("${name}", ...) was found)`);
    return new Bucket(ctx);
  }

  /** The declared bucket, or null for a name the app does not declare. */
  bucket(name: string): BucketContext | null {
    const known = this.contexts.get(name);
    if (known) return known;
    const model = this.deps.buckets().find((b) => b.name === name);
    if (!model) return null;
    const ctx: BucketContext = {
      name,
      isPublic: model.public,
      store: new BucketStore(path.join(this.deps.root(), name)),
      signer: this.signer,
      objectUrl: (key) => this.deps.baseUrl().replace(/\/+$/, "") + objectPath(name, key),
    };
    this.contexts.set(name, ctx);
    return ctx;
  }

  /** Answers a request whose parsed `url` is under /__local/objects/ (isObjectPath). */
  serve(url: URL, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    return serveObjectRequest(this, url, req, res);
  }
}
