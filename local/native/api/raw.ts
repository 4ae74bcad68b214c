// The two objects a raw endpoint's handler is given by the runtime: a body reader over the incoming
// request stream and a response writer over the outgoing response (wrapped by the SDK's RawRequest/RawResponse).
import type http from "node:http";
import type { Napi } from "../napi-types";

type Push = (chunk: Buffer | null) => boolean;

export class BodyReader implements Napi.BodyReader {
  private push: Push | null = null;

  constructor(private readonly source?: http.IncomingMessage) {}

  start(push: (...args: any[]) => any, destroy: (...args: any[]) => any): void {
    this.push = push as Push;
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

export class ResponseWriter implements Napi.ResponseWriter {
  /** Settles when the handler has closed the response. */
  readonly closed: Promise<void>;
  private markClosed!: () => void;

  constructor(private readonly res: http.ServerResponse) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    res.on("close", () => this.markClosed());
  }

  writeHead(status: number, headers: string[] | Record<string, string | number | string[]>): void {
    this.res.writeHead(status, headers as http.OutgoingHttpHeaders);
  }

  writeBody(buf: Buffer, callback?: (...args: any[]) => any): void {
    this.res.write(buf, callback);
  }

  writeBodyMulti(bufs: Buffer[], callback?: (...args: any[]) => any): void {
    this.res.write(Buffer.concat(bufs), callback);
  }

  close(buf?: Buffer | null, callback?: (...args: any[]) => any): void {
    this.res.end(buf ?? undefined, () => {
      this.markClosed();
      callback?.();
    });
  }
}
