import { describe, it, expect, beforeEach, afterEach } from "vitest";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BucketModel } from "../../model/app-model";
import { LocalObjects } from "./local";
import { ObjectAttrs, type Bucket, type ListEntry, type ListIterator } from "./bucket";
import type { Napi } from "../../model/napi";
import { ObjectErrorKind } from "../core/napi-enums";
import { TypedObjectError } from "./errors";

const loc = { file: "url/bucket.ts", line: 1, column: 1 };
const buckets: BucketModel[] = [
  { name: "qr-codes", file: "url/bucket.ts", loc, public: true, versioned: false, usedBy: [] },
  { name: "private-files", file: "url/bucket.ts", loc, public: false, versioned: false, usedBy: [] },
];

let dir: string;
let objects: LocalObjects;
let bucket: Bucket;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "objects-test-"));
  objects = new LocalObjects({ buckets: () => buckets, root: () => dir, baseUrl: () => "http://127.0.0.1:4000/" });
  bucket = objects.openBucket("qr-codes");
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The value, or a failed test naming the error the operation resolved to. */
function ok<T>(v: T | TypedObjectError): T {
  if (v instanceof TypedObjectError) throw new Error(`unexpected object error ${v.kind}: ${v.message}`);
  return v;
}

function expectError(v: unknown, kind: Napi.ObjectErrorKind, message?: string | RegExp): void {
  expect(v).toBeInstanceOf(TypedObjectError);
  expect((v as TypedObjectError).kind).toBe(kind);
  if (message !== undefined) expect((v as TypedObjectError).message).toMatch(message);
}

async function drain(iter: ListIterator): Promise<ListEntry[]> {
  const out: ListEntry[] = [];
  for (let e = await iter.next(); e !== null; e = await iter.next()) out.push(e);
  return out;
}

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

describe("bucket objects on disk", () => {
  it("uploads, reads attributes, downloads, lists and removes an object", async () => {
    const obj = bucket.object("abc123.png");
    const attrs = ok(await obj.upload(png, { contentType: "image/png" }));
    expect(attrs).toBeInstanceOf(ObjectAttrs);
    expect(attrs).toMatchObject({ name: "abc123.png", size: png.length, contentType: "image/png" });
    expect(attrs.etag).toBe(JSON.stringify(crypto.createHash("md5").update(png).digest("base64")));
    expect(attrs.version).toMatch(/^\d+$/);

    expect(ok(await obj.attrs())).toEqual(attrs);
    expect(ok(await obj.exists())).toBe(true);
    expect(ok(await obj.downloadAll())).toEqual(png);
    expect(await drain(ok(await bucket.list({})))).toEqual([{ name: "abc123.png", size: png.length, etag: attrs.etag }]);

    expect(await obj.delete()).toBeNull();
    expect(ok(await obj.exists())).toBe(false);
    expect(await drain(ok(await bucket.list({})))).toEqual([]);
  });

  it("defaults the content type to application/octet-stream and replaces on re-upload", async () => {
    const obj = bucket.object("data.bin");
    const first = ok(await obj.upload(Buffer.from("one")));
    expect(first.contentType).toBe("application/octet-stream");
    const second = ok(await obj.upload(Buffer.from("two!"), { contentType: "text/plain" }));
    expect(second.version).not.toBe(first.version);
    expect(ok(await obj.downloadAll()).toString()).toBe("two!");
    expect(ok(await obj.attrs())).toMatchObject({ size: 4, contentType: "text/plain" });
  });

  it("refuses an upload with preconditions.notExists when the object exists", async () => {
    const obj = bucket.object("once.png");
    ok(await obj.upload(png, { preconditions: { notExists: true } }));
    const again = await obj.upload(Buffer.from("other"), { preconditions: { notExists: true } });
    expectError(again, ObjectErrorKind.PreconditionFailed, "precondition failed");
    expect(ok(await obj.downloadAll())).toEqual(png);
  });

  it("lets exactly one of two concurrent notExists uploads win", async () => {
    const obj = bucket.object("race.png");
    const results = await Promise.all([
      obj.upload(Buffer.from("a"), { preconditions: { notExists: true } }),
      obj.upload(Buffer.from("b"), { preconditions: { notExists: true } }),
    ]);
    expect(results.filter((r) => r instanceof TypedObjectError)).toHaveLength(1);
    const winner = results.find((r) => !(r instanceof TypedObjectError)) as ObjectAttrs;
    expect(ok(await obj.attrs()).etag).toBe(winner.etag);
  });

  it("reports a missing object as NotFound, also for remove, and exists as false", async () => {
    const obj = bucket.object("missing.png");
    expectError(await obj.downloadAll(), ObjectErrorKind.NotFound, "object not found");
    expectError(await obj.attrs(), ObjectErrorKind.NotFound, "object not found");
    expectError(await obj.delete(), ObjectErrorKind.NotFound, "object not found");
    expect(ok(await obj.exists())).toBe(false);
  });

  it("finds only the latest version", async () => {
    const obj = bucket.object("v.txt");
    const first = ok(await obj.upload(Buffer.from("1")));
    const second = ok(await obj.upload(Buffer.from("2")));
    expect(ok(await obj.attrs({ version: second.version }))).toMatchObject({ size: 1 });
    expectError(await obj.attrs({ version: first.version }), ObjectErrorKind.NotFound);
    expectError(await obj.downloadAll({ version: first.version }), ObjectErrorKind.NotFound);
    expect(ok(await obj.exists({ version: first.version }))).toBe(false);
  });

  it("refuses keys that could escape the bucket or be normalised into another key", async () => {
    for (const key of ["../escape.txt", "a/../../etc/passwd", "/etc/passwd", "a/./b", "..", ""]) {
      expectError(await bucket.object(key).upload(png), ObjectErrorKind.InvalidArgument, /^invalid argument: object name/);
      expectError(await bucket.object(key).downloadAll(), ObjectErrorKind.InvalidArgument);
      expectError(await bucket.object(key).delete(), ObjectErrorKind.InvalidArgument);
    }
    expect(fs.existsSync(path.join(dir, "qr-codes"))).toBe(false);
  });

  it("keeps keys with slashes apart, also a key that is a prefix directory of another", async () => {
    ok(await bucket.object("a").upload(Buffer.from("1")));
    ok(await bucket.object("a/b").upload(Buffer.from("22")));
    ok(await bucket.object("a/c/d").upload(Buffer.from("333")));
    ok(await bucket.object("b").upload(Buffer.from("4444")));

    const names = async (opts: { prefix?: string; limit?: number }) => (await drain(ok(await bucket.list(opts)))).map((e) => e.name);
    expect(await names({})).toEqual(["a", "a/b", "a/c/d", "b"]);
    expect(await names({ prefix: "a/" })).toEqual(["a/b", "a/c/d"]);
    expect(await names({ limit: 2 })).toEqual(["a", "a/b"]);
    expect(await names({ prefix: "zzz" })).toEqual([]);
    expect(ok(await bucket.object("a/c/d").downloadAll()).toString()).toBe("333");
  });

  it("closes a list iterator on markDone", async () => {
    const iter = ok(await bucket.list({}));
    iter.markDone();
    await expect(iter.next()).rejects.toThrow("iterator is closed");
  });

  it("builds public URLs on the local server, encoding each key segment", () => {
    expect(bucket.object("abc123.png").publicUrl()).toBe("http://127.0.0.1:4000/__local/objects/qr-codes/abc123.png");
    expect(bucket.object("dir/a b?#.png").publicUrl()).toBe("http://127.0.0.1:4000/__local/objects/qr-codes/dir/a%20b%3F%23.png");
    expect(() => bucket.object("../x").publicUrl()).toThrow('invalid object name "../x"');
  });

  it("refuses publicUrl on a private bucket", () => {
    const priv = objects.openBucket("private-files");
    expect(() => priv.object("x").publicUrl()).toThrow('bucket is not public: bucket "private-files"');
  });

  it("signs URLs with the requested ttl and refuses more than 7 days", async () => {
    const obj = bucket.object("abc123.png");
    const { url } = ok(await obj.signedDownloadUrl({ ttl: 60 }));
    const parsed = new URL(url);
    expect(parsed.pathname).toBe("/__local/objects/qr-codes/abc123.png");
    expect(Number(parsed.searchParams.get("expires"))).toBeGreaterThan(Date.now() / 1000 + 50);
    expect(ok(await obj.signedUploadUrl()).url).toMatch(/\?expires=\d+&signature=[0-9a-f]{64}$/);
    expectError(await obj.signedUploadUrl({ ttl: 7 * 86400 + 1 }), ObjectErrorKind.InvalidArgument, /7 days/);
  });

  it("refuses a bucket the app does not declare", () => {
    expect(() => objects.openBucket("nope")).toThrow('bucket "nope" is not declared in the app');
  });
});
