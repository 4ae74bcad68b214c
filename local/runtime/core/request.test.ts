import { describe, expect, it } from "vitest";
import { encoreIdOf, newTrace } from "./request";

describe("Encore ids", () => {
  it("encode bytes as RFC 4648 base32hex in lower case without padding (its test vectors)", () => {
    const vectors: [string, string][] = [
      ["", ""],
      ["f", "co"],
      ["fo", "cpng"],
      ["foo", "cpnmu"],
      ["foob", "cpnmuog"],
      ["fooba", "cpnmuoj1"],
      ["foobar", "cpnmuoj1e8"],
    ];
    for (const [text, id] of vectors) expect(encoreIdOf(Buffer.from(text))).toBe(id);
  });

  it("write all-zero and all-one trace ids with the last group zero-filled", () => {
    expect(encoreIdOf(new Uint8Array(16))).toBe("0".repeat(26));
    expect(encoreIdOf(new Uint8Array(16).fill(0xff))).toBe("v".repeat(25) + "s");
  });

  it("make fresh 26-character trace ids and 13-character span ids", () => {
    const a = newTrace();
    const b = newTrace();
    expect(a.traceId).toMatch(/^[0-9a-v]{26}$/);
    expect(a.spanId).toMatch(/^[0-9a-v]{13}$/);
    expect(new Set([a.traceId, b.traceId, a.spanId, b.spanId]).size).toBe(4);
    expect(newTrace(a)).toMatchObject({ traceId: a.traceId, parentTraceId: a.traceId, parentSpanId: a.spanId });
  });
});
