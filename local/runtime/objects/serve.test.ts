import { describe, it, expect, beforeAll, afterAll } from "vitest";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { BucketModel } from "../../model/app-model";
import { LocalObjects } from "./local";
import { isObjectPath } from "./paths";
import { TypedObjectError } from "./errors";

const loc = { file: "url/bucket.ts", line: 1, column: 1 };
const buckets: BucketModel[] = [
  { name: "qr-codes", file: "url/bucket.ts", loc, public: true, versioned: false, usedBy: [] },
  { name: "private-files", file: "url/bucket.ts", loc, public: false, versioned: false, usedBy: [] },
];

const NOT_FOUND_BODY = '{"code":"not_found","message":"object not found","details":null}';
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7]);

let dir: string;
let server: http.Server;
let base: string;
let objects: LocalObjects;

/** A GET with the path sent exactly as written (fetch would normalise it first). */
function rawGet(p: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(base + "/", { path: p }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      })
      .on("error", reject);
  });
}

function ok<T>(v: T | TypedObjectError): T {
  if (v instanceof TypedObjectError) throw new Error(`unexpected object error ${v.kind}: ${v.message}`);
  return v;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "objects-serve-test-"));
  objects = new LocalObjects({ buckets: () => buckets, root: () => dir, baseUrl: () => base });
  // Stands in for the API server: objects first, everything else is someone else's business.
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://local");
    if (isObjectPath(url.pathname)) return void objects.serve(url, req, res);
    res.writeHead(418);
    res.end("not an object path");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const qr = objects.openBucket("qr-codes");
  ok(await qr.object("abc123.png").upload(png, { contentType: "image/png" }));
  ok(await qr.object("dir/with space.txt").upload(Buffer.from("hello"), { contentType: "text/plain; charset=utf-8" }));
  ok(await objects.openBucket("private-files").object("secret.txt").upload(Buffer.from("top secret")));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("serving objects over HTTP", () => {
  it("serves a public object at its publicUrl with type, length and etag", async () => {
    const url = objects.openBucket("qr-codes").object("abc123.png").publicUrl();
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(png.length));
    const attrs = ok(await objects.openBucket("qr-codes").object("abc123.png").attrs());
    expect(res.headers.get("etag")).toBe(attrs.etag);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
  });

  it("decodes key segments", async () => {
    const url = objects.openBucket("qr-codes").object("dir/with space.txt").publicUrl();
    expect(url).toBe(`${base}/__local/objects/qr-codes/dir/with%20space.txt`);
    const res = await fetch(url);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("hello");
  });

  it("answers HEAD with the headers only", async () => {
    const res = await fetch(`${base}/__local/objects/qr-codes/abc123.png`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(png.length));
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(await res.text()).toBe("");
  });

  it("answers If-None-Match with 304", async () => {
    const first = await fetch(`${base}/__local/objects/qr-codes/abc123.png`);
    const res = await fetch(`${base}/__local/objects/qr-codes/abc123.png`, { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(res.status).toBe(304);
  });

  it("gives Encore's not_found body for a missing object or bucket", async () => {
    for (const p of ["/__local/objects/qr-codes/missing.png", "/__local/objects/no-such-bucket/abc123.png"]) {
      const res = await fetch(base + p);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.text()).toBe(NOT_FOUND_BODY);
    }
  });

  it("does not serve objects of a private bucket without a signature", async () => {
    const res = await fetch(`${base}/__local/objects/private-files/secret.txt`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(NOT_FOUND_BODY);
  });

  it("serves a private object through a signed download URL, and only unaltered", async () => {
    const obj = objects.openBucket("private-files").object("secret.txt");
    const { url } = ok(await obj.signedDownloadUrl({ ttl: 60 }));
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("top secret");

    const forged = url.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 3600}`);
    const denied = await fetch(forged);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ code: "permission_denied", message: "invalid signed URL", details: null });

    // A download signature does not allow an upload.
    const put = await fetch(url, { method: "PUT", body: "overwritten" });
    expect(put.status).toBe(403);
    expect(ok(await obj.downloadAll()).toString()).toBe("top secret");
  });

  it("refuses an expired signed URL", async () => {
    const query = objects.signer.query("GET", "private-files", "secret.txt", 1, Date.now() - 10_000);
    const res = await fetch(`${base}/__local/objects/private-files/secret.txt?${query}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "permission_denied", message: "signed URL has expired", details: null });
  });

  it("stores the body of a PUT to a signed upload URL, and refuses unsigned uploads", async () => {
    const obj = objects.openBucket("private-files").object("uploads/report.csv");
    const { url } = ok(await obj.signedUploadUrl({ ttl: 60 }));
    const res = await fetch(url, { method: "PUT", body: "a,b\n1,2\n", headers: { "Content-Type": "text/csv" } });
    expect(res.status).toBe(200);
    expect(ok(await obj.attrs())).toMatchObject({ contentType: "text/csv", size: 8, etag: res.headers.get("etag") });

    const unsigned = await fetch(`${base}/__local/objects/qr-codes/new.png`, { method: "PUT", body: "x" });
    expect(unsigned.status).toBe(403);
    expect(ok(await objects.openBucket("qr-codes").object("new.png").exists())).toBe(false);
  });

  it("refuses malformed paths and bad keys with invalid_argument", async () => {
    for (const p of ["/__local/objects/qr-codes/%E0%A4%A", "/__local/objects/qr-codes/", "/__local/objects/qr-codes/a%00b"]) {
      const res = await rawGet(p);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).code).toBe("invalid_argument");
    }
  });

  it("resolves dot segments like a browser, so a path cannot leave its bucket", async () => {
    expect((await rawGet("/__local/objects/qr-codes/a/../abc123.png")).status).toBe(200);
    expect((await rawGet("/__local/objects/qr-codes/%2e%2e/private-files/secret.txt")).body).not.toContain("top secret");
    expect((await rawGet("/__local/objects/qr-codes/../../../etc/passwd")).status).toBe(418);
  });

  it("leaves every other path to the API server", async () => {
    for (const p of ["/url.shorten", "/__local/objectsX/qr-codes/abc123.png", "/__local/objects"]) {
      const res = await fetch(base + p);
      expect(res.status).toBe(418);
    }
  });
});
