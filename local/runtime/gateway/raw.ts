// The two objects a raw endpoint's handler is given by the runtime: a body reader over the incoming
// request stream and a response writer over the outgoing response (wrapped by the SDK's RawRequest/RawResponse).
import type http from "node:http";
import type { Napi } from "../../model/napi";
import { setGatewayHead, withGatewayHead, type GatewayHead } from "./head";

type Push = (chunk: Buffer | null) => boolean;
/** The SDK calls these with no arguments, or an error (which it then emits). */
type Callback = (err?: Error) => void;

export class BodyReader implements Napi.BodyReader {
  private push: Push | null = null;

  constructor(private readonly source?: http.IncomingMessage) {}

  start(push: Push, destroy: (err: Error) => void): void {
    this.push = push;
    const src = this.source;
    if (!src) {
      push(null);
      return;
    }
    src.on("data", (chunk: Buffer) => {
      if (this.push && !this.push(chunk)) src.pause();
    });
    src.on("end", () => this.push?.(null));
    src.on("error", (err) => destroy(err));
  }

  read(): void {
    this.source?.resume();
  }
}

type Head = { status: number; headers: string[] | Record<string, string | number | string[]> };

/**
 * The response side of a raw endpoint, behaving as Encore's native writer does (runtimes/js/src/raw_api.rs,
 * stream/write.rs). The head is only kept until the first body byte or the close, so a handler that throws
 * before then still gets Encore's error response instead of its head. When the client has gone, bytes are
 * dropped and every callback is still called, without an error: a callback given an error would make the
 * SDK's RawResponse emit 'error', which no handler listens for and which would end the process.
 */
export class ResponseWriter implements Napi.ResponseWriter {
  /** Callbacks of writes not yet flushed: a connection that closes first never reports them written. */
  private readonly unflushed = new Set<() => void>();
  private head: Head = { status: 200, headers: {} };
  private headSent = false;

  constructor(
    private readonly res: http.ServerResponse,
    /** The gateway's own headers, sent with the handler's head. */
    private readonly gatewayHead: GatewayHead = {},
  ) {
    res.on("close", () => {
      for (const done of this.unflushed) done();
      this.unflushed.clear();
    });
  }

  writeHead(status: number, headers: Head["headers"]): void {
    if (!Number.isInteger(status) || status < 100 || status > 999) throw new Error(`invalid status code: ${status}`);
    // Once the body has started, a new head is ignored, as raw_api.rs `set_head` ignores it.
    if (!this.headSent) this.head = { status, headers };
  }

  writeBody(buf: Buffer, callback?: Callback): void {
    this.send(buf, false, callback);
  }

  writeBodyMulti(bufs: Buffer[], callback?: Callback): void {
    this.send(Buffer.concat(bufs), false, callback);
  }

  close(buf?: Buffer | null, callback?: Callback): void {
    this.send(buf ?? undefined, true, callback);
  }

  /** Writes (or ends with) `buf` unless the client is gone; calls `callback` once either way. */
  private send(buf: Buffer | undefined, end: boolean, callback?: Callback): void {
    const done = once(callback);
    if (this.res.destroyed) {
      process.nextTick(done);
      return;
    }
    if (!this.headSent) {
      this.headSent = true;
      const own = this.head.headers;
      if (Array.isArray(own)) {
        setGatewayHead(this.res, this.gatewayHead);
        this.res.writeHead(this.head.status, own);
      } else this.res.writeHead(this.head.status, withGatewayHead(this.gatewayHead, own));
    }
    this.unflushed.add(done);
    const written = flushed(this.unflushed, done);
    if (end) {
      // One write for the head and the last bytes: ServerResponse.end writes them separately.
      const socket = this.res.socket;
      socket?.cork();
      this.res.end(buf, written);
      socket?.uncork();
    } else this.res.write(buf!, written);
  }
}

/**
 * The callback of a write: forgets `done` as unflushed, then calls it. Built here rather than as a named
 * closure in send(): tsx (keepNames) gives every named closure its name with defineProperty as it is
 * made, which cost about half a percent of a resolve's CPU.
 */
function flushed(unflushed: Set<() => void>, done: () => void): () => void {
  return () => {
    unflushed.delete(done);
    done();
  };
}

/** Wraps a callback so it runs at most once and never receives an error. */
function once(callback?: Callback): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    callback?.();
  };
}
