// The HTTP ceiling `npm run bench` compares against: node:http answering one constant JSON body,
// run as its own process like the app, so both get the same share of the cores.
import http from "node:http";
import type { AddressInfo } from "node:net";

const body = JSON.stringify({ url: "https://example.com/" });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
