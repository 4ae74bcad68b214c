// The request object Encore's runtime hands to JS: an API call or a Pub/Sub delivery.
// The SDK stores it in AsyncLocalStorage (currentRequest, getAuthData read it back).
import { randomFillSync } from "node:crypto";
import type { Napi } from "../../model/napi";

/** Random bytes drawn from the OS in blocks: one call per block instead of two per request. */
const pool = Buffer.alloc(16 * 1024);
let used = pool.length;

const ALPHABET = "0123456789abcdefghijklmnopqrstuv";

/**
 * Bytes as Encore writes trace and span ids (`serialize_encore` in runtimes/core/src/model/mod.rs and
 * base32.rs): five bits at a time, most significant first, zero-filled at the end, no padding, in the
 * alphabet 0-9a-v (RFC 4648's base32hex in lower case).
 */
export function encoreIdOf(bytes: Uint8Array): string {
  let out = "";
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = ((acc << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >>> bits) & 31];
    }
  }
  return bits > 0 ? out + ALPHABET[(acc << (5 - bits)) & 31] : out;
}

/** Fresh random bytes from the pool, as an Encore id. */
function encoreId(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return encoreIdOf(pool.subarray(used - bytes, used));
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
