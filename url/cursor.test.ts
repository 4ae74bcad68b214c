import { describe, expect, it } from "vitest";
import { APIError, ErrCode } from "encore.dev/api";
import { decodeCursor, encodeCursor } from "./cursor";

describe("page cursors", () => {
  it("round-trip an id", () => {
    for (const id of [1, 20, 123456, 2 ** 31 - 1]) expect(decodeCursor(encodeCursor(id))).toBe(id);
  });

  it.each([
    ["garbage", "!!!"],
    ["plain number", "42"],
    ["padded", encodeCursor(7) + "="],
    ["stray characters", encodeCursor(7).slice(0, 2) + "*" + encodeCursor(7).slice(2)],
    ["zero", Buffer.from("id:0").toString("base64url")],
    ["beyond int4", Buffer.from(`id:${2 ** 31}`).toString("base64url")],
    ["negative", Buffer.from("id:-5").toString("base64url")],
    ["empty", ""],
  ])("refuse %s with invalid_argument", (_, cursor) => {
    let err: unknown;
    try {
      decodeCursor(cursor);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).code).toBe(ErrCode.InvalidArgument);
    expect((err as APIError).message).toBe("invalid cursor");
  });
});

describe("cursors of a BIGSERIAL table", () => {
  it("round-trip ids up to the largest safe integer and refuse larger ones", () => {
    const max = Number.MAX_SAFE_INTEGER;
    for (const id of [1, 2 ** 31, max]) expect(decodeCursor(encodeCursor(id), max)).toBe(id);
    expect(() => decodeCursor(Buffer.from("id:9007199254740993").toString("base64url"), max)).toThrow("invalid cursor");
  });
});
