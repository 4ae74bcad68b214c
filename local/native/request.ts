// The request object Encore's runtime hands to JS: an API call or a Pub/Sub delivery.
// The SDK stores it in AsyncLocalStorage (currentRequest, getAuthData read it back).
import { randomFillSync } from "node:crypto";
import type { Napi } from "./napi-types";

/** Random bytes drawn from the OS in blocks: one call per block instead of two per request. */
const pool = Buffer.alloc(16 * 1024);
let used = pool.length;

/**
 * Random bytes as Encore writes trace and span ids (runtimes/core/src/model/mod.rs `serialize_encore`):
 * unpadded base32 with the alphabet 0-9a-v, which is BigInt's own radix-32 alphabet.
 */
function encoreId(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  const bits = bytes * 8;
  const pad = (5 - (bits % 5)) % 5;
  const value = BigInt("0x" + pool.toString("hex", used - bytes, used)) << BigInt(pad);
  return value.toString(32).padStart((bits + pad) / 5, "0");
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
