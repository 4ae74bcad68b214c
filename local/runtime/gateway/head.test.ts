import type http from "node:http";
import { describe, expect, it } from "vitest";
import { withGatewayHead, type GatewayHead } from "./head";

// Encore's gateway leaves the handler's headers as they are, appends each CORS header after them (a
// second line where the handler used the same name), and adds the trace id only when the handler set
// none (runtimes/core/src/api/gateway/mod.rs response_filter, cors/cors_headers_config/mod.rs).
describe("withGatewayHead", () => {
  const cors: GatewayHead = { "Access-Control-Allow-Origin": "*", Vary: "origin", "X-Encore-Trace-Id": "t" };
  const cases: [string, GatewayHead, http.OutgoingHttpHeaders, [string, unknown][]][] = [
    [
      "distinct names: the handler's, then the gateway's",
      cors,
      { Location: "/x", "content-length": 0 },
      [
        ["Location", "/x"],
        ["content-length", 0],
        ["Access-Control-Allow-Origin", "*"],
        ["Vary", "origin"],
        ["X-Encore-Trace-Id", "t"],
      ],
    ],
    [
      "a CORS name the handler used too: both lines, the handler's first; a handler's trace id stays alone",
      cors,
      { vary: "Accept", "x-encore-trace-id": "own" },
      [
        ["vary", ["Accept", "origin"]],
        ["x-encore-trace-id", "own"],
        ["Access-Control-Allow-Origin", "*"],
      ],
    ],
    [
      "a handler's two spellings of one name: the later takes the earlier's place, as setHeader does",
      { Vary: "origin" },
      { "Cache-Control": "no-store", "cache-control": "private", Vary: ["A", "B"] },
      [
        ["cache-control", "private"],
        ["Vary", ["A", "B", "origin"]],
      ],
    ],
    ["no gateway headers", {}, { "Content-Type": "application/json" }, [["Content-Type", "application/json"]]],
  ];
  it.each(cases)("%s", (_, head, headers, expected) => {
    expect(Object.entries(withGatewayHead(head, headers))).toEqual(expected);
  });
});
