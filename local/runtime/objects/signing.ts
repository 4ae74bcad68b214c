// Signed URLs for the local object server: an HMAC over method, bucket, key and expiry. The signing
// key lives as long as the process, so a signed URL also stops working when the server restarts.
import crypto from "node:crypto";
import { invalidArgument } from "./errors";

export type SignedMethod = "GET" | "PUT";

/** Encore's limits (runtimes/js/src/objects.rs, runtimes/core/src/objects/mod.rs): default 1 h, at most 7 days. */
const DEFAULT_TTL_SECONDS = 3600;
const MAX_TTL_SECONDS = 7 * 86400;

export const EXPIRES_PARAM = "expires";
export const SIGNATURE_PARAM = "signature";

export type Verdict = "valid" | "expired" | "invalid";

export class UrlSigner {
  constructor(private readonly secret: Buffer = crypto.randomBytes(32)) {}

  /** The query string that grants `method` on the object until now + ttl seconds. */
  query(method: SignedMethod, bucket: string, key: string, ttl: number | undefined, now = Date.now()): string {
    const seconds = ttl ?? DEFAULT_TTL_SECONDS;
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_TTL_SECONDS) {
      throw invalidArgument(`ttl must be a whole number of seconds from 0 to ${MAX_TTL_SECONDS} (7 days), got ${ttl}`);
    }
    const expires = String(Math.floor(now / 1000) + seconds);
    const params = new URLSearchParams({ [EXPIRES_PARAM]: expires, [SIGNATURE_PARAM]: this.mac(method, bucket, key, expires) });
    return params.toString();
  }

  verify(method: SignedMethod, bucket: string, key: string, params: URLSearchParams, now = Date.now()): Verdict {
    const expires = params.get(EXPIRES_PARAM) ?? "";
    const given = Buffer.from(params.get(SIGNATURE_PARAM) ?? "", "hex");
    const wanted = Buffer.from(this.mac(method, bucket, key, expires), "hex");
    if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) return "invalid";
    return Number(expires) * 1000 < now ? "expired" : "valid";
  }

  private mac(method: SignedMethod, bucket: string, key: string, expires: string): string {
    return crypto.createHmac("sha256", this.secret).update([method, bucket, key, expires].join("\n")).digest("hex");
  }
}
