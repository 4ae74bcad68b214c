import http from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { withGatewayHead, type GatewayHead } from "./head";

/** What node:http holds after setHeader for each of `head`, then writeHead's `headers` (the way before). */
function throughSetHeader(head: GatewayHead, headers: http.OutgoingHttpHeaders): [string, unknown][] {
  const res = new http.ServerResponse(new http.IncomingMessage(new Socket()));
  for (const name in head) res.setHeader(name, head[name]);
  for (const name in headers) res.setHeader(name, headers[name]!);
  // getRawHeaderNames (node ≥ 15) keeps each name's spelling and place; @types/node leaves it out.
  const raw = (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
  return raw.map((name) => [name, res.getHeader(name)]);
}

describe("withGatewayHead", () => {
  const cases: [string, GatewayHead, http.OutgoingHttpHeaders][] = [
    ["distinct names", { Vary: "Origin", "X-Encore-Trace-Id": "t" }, { Location: "/x", "content-length": 0 }],
    [
      "a handler's name in another case takes the gateway's place",
      { Vary: "Origin", "X-Encore-Trace-Id": "t" },
      { vary: "Accept", "x-encore-trace-id": "own" },
    ],
    [
      "a handler's two spellings of one name",
      { Vary: "Origin" },
      { "Cache-Control": "no-store", "cache-control": "private", Vary: ["A", "B"] },
    ],
    ["no gateway headers", {}, { "Content-Type": "application/json" }],
  ];
  for (const [name, head, headers] of cases) {
    it(`leaves the same names, spellings, order and values as setHeader then writeHead: ${name}`, () => {
      expect(Object.entries(withGatewayHead(head, headers))).toEqual(throughSetHeader(head, headers));
    });
  }
});
