// The request object Encore's runtime hands to JS: an API call or a Pub/Sub delivery.
// The SDK stores it in AsyncLocalStorage (currentRequest, getAuthData read it back).
import { randomFillSync } from "node:crypto";
import type { Napi } from "../../model/napi";

/** Random bytes drawn from the OS in blocks: one call per block instead of two per request. */
const pool = Buffer.alloc(16 * 1024);
let used = pool.length;

/** Encore's id alphabet, as character codes. */
const ALPHABET = Buffer.from("0123456789abcdefghijklmnopqrstuv", "latin1");

/** Where ids are spelled before they become a string: one string per id, not one per character. */
const letters = Buffer.alloc(26);

/**
 * Bytes as Encore writes trace and span ids (`serialize_encore` in runtimes/core/src/model/mod.rs and
 * base32.rs): five bits at a time, most significant first, zero-filled at the end, no padding, in the
 * alphabet 0-9a-v (RFC 4648's base32hex in lower case). Bytes `start` to `end` of `bytes`.
 */
export function encoreIdOf(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const length = Math.ceil(((end - start) * 8) / 5);
  const out = length <= letters.length ? letters : Buffer.alloc(length);
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = start; i < end; i++) {
    acc = ((acc << 8) | bytes[i]) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out[n++] = ALPHABET[(acc >>> bits) & 31];
    }
  }
  if (bits > 0) out[n++] = ALPHABET[(acc << (5 - bits)) & 31];
  return out.toString("latin1", 0, n);
}

/** Fresh random bytes from the pool, as an Encore id. */
function encoreId(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return encoreIdOf(pool, used - bytes, used);
}

/** A fresh trace id, so log lines of one request can be told apart. */
export function newTrace(parent?: Napi.TraceData): Napi.TraceData {
  return {
    traceId: parent?.traceId ?? encoreId(16),
    spanId: encoreId(8),
    parentTraceId: parent?.traceId,
    parentSpanId: parent?.spanId,
  };
}

export class Request implements Napi.Request {
  constructor(
    private readonly data: {
      payload: unknown;
      meta: Napi.RequestMeta;
      authData?: Record<string, unknown> | null;
    },
  ) {}

  /** The decoded request (null when the endpoint takes no parameters). */
  payload(): unknown {
    return this.data.payload;
  }

  meta(): Napi.RequestMeta {
    return this.data.meta;
  }

  getAuthData(): unknown {
    return this.data.authData ?? null;
  }
}
