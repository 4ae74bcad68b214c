// One bucket's objects on disk. Each object is one file named by the SHA-256 of its key (so no key
// can reach outside the directory, and "a" and "a/b" can both exist), holding a JSON header line
// with its attributes followed by the bytes. Uploads write a temp file and rename it into place,
// or hard-link it for `notExists`, which fails atomically when the object exists.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { invalidArgument, preconditionFailed } from "./errors";

export interface StoredAttrs {
  name: string;
  size: number;
  contentType: string;
  /** Quoted base64 MD5 of the content, as Encore's local GCS emulator computes it. */
  etag: string;
  /** A GCS-style generation number (microseconds), new on every upload. */
  version: string;
}

/** What the GCS client Encore uses sends when the caller gives no content type (inferred). */
const DEFAULT_CONTENT_TYPE = "application/octet-stream";
/** GCS's limit on object names. */
const MAX_KEY_BYTES = 1024;
const TEMP_PREFIX = ".tmp-";

/** Why a key is refused, or null. Stricter than GCS on "." and ".." so URLs can't be normalised to another object. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return "must not be empty";
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return `must be at most ${MAX_KEY_BYTES} bytes`;
  if (key.startsWith("/")) return "must not be an absolute path";
  if (key.split("/").some((seg) => seg === "." || seg === "..")) return 'must not contain "." or ".." path segments';
  if (/[\0\r\n]/.test(key)) return "must not contain NUL, CR or LF";
  return null;
}

export function checkKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw invalidArgument(`object name ${JSON.stringify(key)} ${problem}`);
}

let lastVersion = 0;

function nextVersion(): string {
  lastVersion = Math.max(Date.now() * 1000, lastVersion + 1);
  return String(lastVersion);
}

function isNoEntry(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === "ENOENT";
}

function splitFile(file: Buffer): { attrs: StoredAttrs; data: Buffer } {
  const nl = file.indexOf(0x0a);
  return { attrs: JSON.parse(file.subarray(0, nl).toString("utf8")) as StoredAttrs, data: file.subarray(nl + 1) };
}

/** Reads just the header line, in chunks, so listing never reads object contents. */
async function readAttrs(file: string): Promise<StoredAttrs | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (e) {
    if (isNoEntry(e)) return null;
    throw e;
  }
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(4096) });
      const chunk = buffer.subarray(0, bytesRead);
      const nl = chunk.indexOf(0x0a);
      chunks.push(nl >= 0 ? chunk.subarray(0, nl) : chunk);
      if (nl >= 0) return JSON.parse(Buffer.concat(chunks).toString("utf8")) as StoredAttrs;
      if (bytesRead === 0) throw new Error(`corrupt object file ${file}: no header line`);
    }
  } finally {
    await handle.close();
  }
}

export class BucketStore {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, crypto.createHash("sha256").update(key).digest("hex"));
  }

  async put(key: string, data: Buffer, contentType: string | undefined, notExists: boolean): Promise<StoredAttrs> {
    checkKey(key);
    const attrs: StoredAttrs = {
      name: key,
      size: data.length,
      contentType: contentType || DEFAULT_CONTENT_TYPE,
      etag: JSON.stringify(crypto.createHash("md5").update(data).digest("base64")),
      version: nextVersion(),
    };
    const tmp = path.join(this.dir, `${TEMP_PREFIX}${crypto.randomUUID()}`);
    const contents = Buffer.concat([Buffer.from(JSON.stringify(attrs) + "\n"), data]);
    // The bucket's directory is made on its first upload (or after it was removed), not checked on every one.
    await fs.writeFile(tmp, contents).catch(async (e: unknown) => {
      if (!isNoEntry(e)) throw e;
      await fs.mkdir(this.dir, { recursive: true });
      await fs.writeFile(tmp, contents);
    });
    if (!notExists) {
      await fs.rename(tmp, this.file(key));
      return attrs;
    }
    try {
      await fs.link(tmp, this.file(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") throw preconditionFailed();
      throw e;
    } finally {
      await fs.unlink(tmp).catch((e: unknown) => {
        if (!isNoEntry(e)) throw e;
      });
    }
    return attrs;
  }

  async get(key: string): Promise<{ attrs: StoredAttrs; data: Buffer } | null> {
    checkKey(key);
    try {
      return splitFile(await fs.readFile(this.file(key)));
    } catch (e) {
      if (isNoEntry(e)) return null;
      throw e;
    }
  }

  async attrs(key: string): Promise<StoredAttrs | null> {
    checkKey(key);
    return readAttrs(this.file(key));
  }

  /** False when there was nothing to remove. */
  async remove(key: string): Promise<boolean> {
    checkKey(key);
    try {
      await fs.unlink(this.file(key));
      return true;
    } catch (e) {
      if (isNoEntry(e)) return false;
      throw e;
    }
  }

  /** Objects whose names start with prefix, in lexicographic order like GCS, at most limit of them. */
  async list(prefix: string, limit: number | null): Promise<StoredAttrs[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (e) {
      if (isNoEntry(e)) return [];
      throw e;
    }
    const all = await Promise.all(names.filter((n) => !n.startsWith(TEMP_PREFIX)).map((n) => readAttrs(path.join(this.dir, n))));
    const matching = all
      .filter((a): a is StoredAttrs => a !== null && a.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return limit === null ? matching : matching.slice(0, Math.max(limit, 0));
  }
}
