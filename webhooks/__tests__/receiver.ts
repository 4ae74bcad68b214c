// A webhook receiver on loopback for tests and the end-to-end run: it verifies every request with the
// standardwebhooks package, as a customer's would, and keeps each event once by its webhook-id.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** ReceivedEvent is one verified event's body. */
export interface ReceivedEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** TestReceiver is a running receiver and what it has seen. */
export interface TestReceiver {
  url: string;
  /** Verified events by webhook-id (duplicates land on the same key). */
  events: Map<string, ReceivedEvent>;
  /** Requests answered 2xx, copies included. */
  accepted: number;
  /** Requests whose signature did not verify (answered 400). */
  rejected: number;
  /** Requests answered 503 on purpose. */
  failed: number;
  /** The secret to verify with; set once the webhook is created. */
  secret: string | null;
  /** While true, every request is answered 503 (after it is verified, so nothing counts as received). */
  failing: boolean;
  close(): Promise<void>;
}

/** startReceiver listens on 127.0.0.1 at `port` (0: any free port). */
export async function startReceiver(port = 0): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: "",
    events: new Map(),
    accepted: 0,
    rejected: 0,
    failed: 0,
    secret: null,
    failing: false,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let event: ReceivedEvent;
      try {
        event = new Webhook(receiver.secret ?? "").verify(body, req.headers as Record<string, string>) as ReceivedEvent;
      } catch {
        receiver.rejected++;
        res.writeHead(400).end();
        return;
      }
      if (receiver.failing) {
        receiver.failed++;
        res.writeHead(503).end();
        return;
      }
      receiver.events.set(req.headers["webhook-id"] as string, event);
      receiver.accepted++;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
