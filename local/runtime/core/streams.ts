// Streaming endpoints are not used by this app; these classes exist so that the SDK's
// `instanceof` checks and imports work, and any use fails with a clear message.
import type { Napi } from "../../model/napi";
import { unsupported } from "./unsupported";

export class Stream implements Napi.Stream {
  recv(): Promise<never> {
    return Promise.reject(unsupported("streaming endpoints"));
  }
}

export class Socket implements Napi.Socket {
  send(): void {
    throw unsupported("streaming endpoints");
  }
  recv(): Promise<never> {
    return Promise.reject(unsupported("streaming endpoints"));
  }
  close(): void {}
}

export class Sink implements Napi.Sink {
  send(): void {
    throw unsupported("streaming endpoints");
  }
  close(): void {}
}

export class WebSocketClient extends Socket {}

export enum MetricType {
  Counter = "Counter",
  Gauge = "Gauge",
}
