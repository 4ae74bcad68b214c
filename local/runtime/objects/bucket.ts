// The objects the SDK's Bucket holds (runtime.RT.bucket): operations resolve to a value or to a
// TypedObjectError, never reject on expected failures, exactly like the native binding.
import type { Napi } from "../../model/napi";
import { notFound, orObjectError, TypedObjectError } from "./errors";
import { checkKey, keyProblem, type BucketStore, type StoredAttrs } from "./store";
import type { SignedMethod, UrlSigner } from "./signing";
import { announced, channels, type OperationKind } from "../core/events";

type Source = Napi.Request | null | undefined;

/** A bucket call's result as the end of its trace event: a TypedObjectError is the event's error. */
function outcome<T>(result: T | TypedObjectError, fields?: (r: T) => Record<string, unknown>) {
  return result instanceof TypedObjectError ? { error: result } : { fields: fields?.(result) };
}

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

  list(options?: Napi.ListOptions | null, source?: Source): Promise<ListIterator | TypedObjectError> {
    let observed = 0;
    const run = () =>
      orObjectError(async () => {
        const found = await this.ctx.store.list(options?.prefix ?? "", options?.limit ?? null);
        observed = found.length;
        return new ListIterator(found.map((a) => new ListEntry(a)));
      });
    return announced(
      channels.bucket,
      source,
      "bucket_list",
      () => ({ bucket: this.ctx.name, prefix: options?.prefix }),
      run,
      (r) => outcome(r, () => ({ observed })),
    );
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

  attrs(options?: Napi.AttrsOptions | null, source?: Source): Promise<ObjectAttrs | TypedObjectError> {
    const run = () =>
      orObjectError(async () => {
        const attrs = ofVersion(await this.ctx.store.attrs(this.key), options?.version);
        if (attrs === null) throw notFound();
        return new ObjectAttrs(attrs);
      });
    return this.announce("bucket_get_attrs", source, this.fields(options?.version), run, (a: ObjectAttrs) => ({ attrs: { ...a } }));
  }

  exists(options?: Napi.ExistsOptions | null, source?: Source): Promise<boolean | TypedObjectError> {
    const run = () => orObjectError(async () => ofVersion(await this.ctx.store.attrs(this.key), options?.version) !== null);
    return this.announce("bucket_get_attrs", source, this.fields(options?.version), run, (exists: boolean) => ({ exists }));
  }

  upload(data: Buffer, opts?: Napi.UploadOptions | null, source?: Source): Promise<ObjectAttrs | TypedObjectError> {
    const run = () =>
      orObjectError(async () => {
        const notExists = opts?.preconditions?.notExists === true;
        return new ObjectAttrs(await this.ctx.store.put(this.key, data, opts?.contentType, notExists));
      });
    const fields = { ...this.fields(undefined), contentType: opts?.contentType };
    return this.announce("bucket_upload", source, fields, run, (a: ObjectAttrs) => ({ size: a.size, version: a.version }));
  }

  signedUploadUrl(options?: Napi.UploadUrlOptions | null): Promise<Napi.SignedUploadUrl | TypedObjectError> {
    return orObjectError(async () => ({ url: this.signedUrl("PUT", options?.ttl) }));
  }

  signedDownloadUrl(options?: Napi.DownloadUrlOptions | null): Promise<Napi.SignedDownloadUrl | TypedObjectError> {
    return orObjectError(async () => ({ url: this.signedUrl("GET", options?.ttl) }));
  }

  downloadAll(options?: Napi.DownloadOptions | null, source?: Source): Promise<Buffer | TypedObjectError> {
    const run = () =>
      orObjectError(async () => {
        const obj = await this.ctx.store.get(this.key);
        if (obj === null || ofVersion(obj.attrs, options?.version) === null) throw notFound();
        return obj.data;
      });
    return this.announce("bucket_download", source, this.fields(options?.version), run, (b: Buffer) => ({ size: b.length }));
  }

  /** A missing object is NotFound, as GCS (and so `encore run`) reports it. */
  delete(options?: Napi.DeleteOptions | null, source?: Source): Promise<TypedObjectError | null> {
    const run = () =>
      orObjectError(async () => {
        if (options?.version !== undefined && ofVersion(await this.ctx.store.attrs(this.key), options.version) === null) {
          throw notFound();
        }
        if (!(await this.ctx.store.remove(this.key))) throw notFound();
        return null;
      });
    return this.announce("bucket_delete", source, this.fields(options?.version), run);
  }

  /** The bucket and object a trace event names. */
  private fields(version: string | undefined): Record<string, unknown> {
    return { bucket: this.ctx.name, object: this.key, version };
  }

  /** Runs a call on this object, announced as `kind` with `fields`; `ended` reads the end fields from its result. */
  private announce<T>(
    kind: OperationKind,
    source: Source,
    fields: Record<string, unknown>,
    run: () => Promise<T | TypedObjectError>,
    ended?: (result: T) => Record<string, unknown>,
  ): Promise<T | TypedObjectError> {
    return announced(
      channels.bucket,
      source,
      kind,
      () => fields,
      run,
      (r) => outcome(r, ended),
    );
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
