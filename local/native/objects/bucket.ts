// The objects the SDK's Bucket holds (runtime.RT.bucket): operations resolve to a value or to a
// TypedObjectError, never reject on expected failures, exactly like the native binding.
import type { Napi } from "../napi-types";
import { notFound, orObjectError, type TypedObjectError } from "./errors";
import { checkKey, keyProblem, type BucketStore, type StoredAttrs } from "./store";
import type { SignedMethod, UrlSigner } from "./signing";

/** What a bucket handle needs: its declaration, its files and how to build URLs on the local server. */
export interface BucketContext {
  name: string;
  isPublic: boolean;
  store: BucketStore;
  signer: UrlSigner;
  /** Absolute URL of the object on the local server, without query. */
  objectUrl(key: string): string;
}

export class ObjectAttrs implements Napi.ObjectAttrs {
  name: string;
  version?: string;
  size: number;
  contentType?: string;
  etag: string;

  constructor(a: StoredAttrs) {
    this.name = a.name;
    this.version = a.version;
    this.size = a.size;
    this.contentType = a.contentType;
    this.etag = a.etag;
  }
}

export class ListEntry implements Napi.ListEntry {
  name: string;
  size: number;
  etag: string;

  constructor(a: StoredAttrs) {
    this.name = a.name;
    this.size = a.size;
    this.etag = a.etag;
  }
}

export class ListIterator implements Napi.ListIterator {
  private entries: ListEntry[] | null;

  constructor(entries: ListEntry[]) {
    this.entries = entries;
  }

  async next(): Promise<ListEntry | null> {
    if (this.entries === null) throw new Error("iterator is closed");
    return this.entries.shift() ?? null;
  }

  markDone(): void {
    this.entries = null;
  }
}

export class Bucket implements Napi.Bucket {
  constructor(private readonly ctx: BucketContext) {}

  object(name: string): BucketObject {
    return new BucketObject(this.ctx, name);
  }

  list(options?: Napi.ListOptions | null): Promise<ListIterator | TypedObjectError> {
    return orObjectError(async () => {
      const found = await this.ctx.store.list(options?.prefix ?? "", options?.limit ?? null);
      return new ListIterator(found.map((a) => new ListEntry(a)));
    });
  }
}

/**
 * Versions: every upload gets a new GCS-style generation, reported as `version` like Encore's local
 * GCS emulator does, but only the latest one is kept; asking for another version finds nothing.
 */
function ofVersion(attrs: StoredAttrs | null, version: string | undefined): StoredAttrs | null {
  return attrs !== null && (version === undefined || version === attrs.version) ? attrs : null;
}

export class BucketObject implements Napi.BucketObject {
  constructor(
    private readonly ctx: BucketContext,
    private readonly key: string,
  ) {}

  attrs(options?: Napi.AttrsOptions | null): Promise<ObjectAttrs | TypedObjectError> {
    return orObjectError(async () => {
      const attrs = ofVersion(await this.ctx.store.attrs(this.key), options?.version);
      if (attrs === null) throw notFound();
      return new ObjectAttrs(attrs);
    });
  }

  exists(options?: Napi.ExistsOptions | null): Promise<boolean | TypedObjectError> {
    return orObjectError(async () => ofVersion(await this.ctx.store.attrs(this.key), options?.version) !== null);
  }

  upload(data: Buffer, opts?: Napi.UploadOptions | null): Promise<ObjectAttrs | TypedObjectError> {
    return orObjectError(async () => {
      const notExists = opts?.preconditions?.notExists === true;
      return new ObjectAttrs(await this.ctx.store.put(this.key, data, opts?.contentType, notExists));
    });
  }

  signedUploadUrl(options?: Napi.UploadUrlOptions | null): Promise<Napi.SignedUploadUrl | TypedObjectError> {
    return orObjectError(async () => ({ url: this.signedUrl("PUT", options?.ttl) }));
  }

  signedDownloadUrl(options?: Napi.DownloadUrlOptions | null): Promise<Napi.SignedDownloadUrl | TypedObjectError> {
    return orObjectError(async () => ({ url: this.signedUrl("GET", options?.ttl) }));
  }

  downloadAll(options?: Napi.DownloadOptions | null): Promise<Buffer | TypedObjectError> {
    return orObjectError(async () => {
      const obj = await this.ctx.store.get(this.key);
      if (obj === null || ofVersion(obj.attrs, options?.version) === null) throw notFound();
      return obj.data;
    });
  }

  /** A missing object is NotFound, as GCS (and so `encore run`) reports it. */
  delete(options?: Napi.DeleteOptions | null): Promise<TypedObjectError | null> {
    return orObjectError(async () => {
      if (options?.version !== undefined && ofVersion(await this.ctx.store.attrs(this.key), options.version) === null) {
        throw notFound();
      }
      if (!(await this.ctx.store.remove(this.key))) throw notFound();
      return null;
    });
  }

  /** Throws like the native binding; the compiler already rejects publicUrl on a private bucket. */
  publicUrl(): string {
    if (!this.ctx.isPublic) {
      throw new Error(`bucket is not public: bucket "${this.ctx.name}" was not declared with { public: true }`);
    }
    const problem = keyProblem(this.key);
    if (problem) throw new Error(`invalid object name ${JSON.stringify(this.key)}: it ${problem}`);
    return this.ctx.objectUrl(this.key);
  }

  private signedUrl(method: SignedMethod, ttl: number | undefined): string {
    checkKey(this.key);
    return `${this.ctx.objectUrl(this.key)}?${this.ctx.signer.query(method, this.ctx.name, this.key, ttl)}`;
  }
}
