import { describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { allocateCode, CODE_LENGTH, MAX_CODE_ATTEMPTS, randomCode, type RandomSource } from "./code";
import { captureLogs, expectAPIError } from "../local/testing";
import { codeClash as clash } from "./__tests__/helpers";

/** A RandomSource that hands out `bytes` in order. */
function scripted(bytes: number[]): RandomSource {
  let next = 0;
  return (size) => Uint8Array.from({ length: size }, () => bytes[next++ % bytes.length]);
}

describe("randomCode", () => {
  it("is 6 characters of [0-9a-z]", () => {
    for (let i = 0; i < 1000; i++) expect(randomCode()).toMatch(/^[0-9a-z]{6}$/);
    expect(CODE_LENGTH).toBe(6);
  });

  it("drops bytes 252-255 instead of folding them onto 0-3 (rejection sampling)", () => {
    // 252..255 % 36 would be 0..3 and make "0123" 8/7 as likely as the rest.
    expect(randomCode(scripted([252, 253, 254, 255, 0, 35, 36, 71, 251, 1]))).toBe("0z0zz1");
  });

  it("uses every character about equally often", () => {
    const counts = new Map<string, number>();
    const codes = 60_000;
    for (let i = 0; i < codes; i++) for (const c of randomCode()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    const expected = (codes * CODE_LENGTH) / 36; // 10,000; σ ≈ 100, and modulo bias would add ~12%
    for (const n of counts.values()) expect(Math.abs(n - expected)).toBeLessThan(expected * 0.05);
  });
});

describe("allocateCode", () => {
  it("retries with a new code while claims clash", async () => {
    const offered: string[] = [];
    const codes = ["aaaaaa", "bbbbbb", "cccccc"];
    captureLogs(clash({ code: "aaaaaa", attempt: 1 }), clash({ code: "bbbbbb", attempt: 2 }));
    const got = await allocateCode(
      async (code) => {
        offered.push(code);
        return code === "cccccc" ? `claimed ${code}` : null;
      },
      () => codes.shift()!,
    );
    expect(got).toBe("claimed cccccc");
    expect(offered).toEqual(["aaaaaa", "bbbbbb", "cccccc"]);
  });

  it("gives up with unavailable after MAX_CODE_ATTEMPTS clashes", async () => {
    let claims = 0;
    captureLogs(clash({ code: "aaaaaa" }));
    await expectAPIError(
      allocateCode(
        async () => {
          claims++;
          return null;
        },
        () => "aaaaaa",
      ),
      ErrCode.Unavailable,
      /could not find a free short code/,
    );
    expect(claims).toBe(MAX_CODE_ATTEMPTS);
  });

  it("never offers a reserved code", async () => {
    const codes = ["status", "health", "abc123"];
    const offered: string[] = [];
    await allocateCode(
      async (code) => {
        offered.push(code);
        return code;
      },
      () => codes.shift()!,
    );
    expect(offered).toEqual(["abc123"]);
  });
});
