// Validation expression building and simplification (types/validation.rs semantics).
import { describe, expect, it } from "vitest";
import { unsupportedValidation } from "../types/schema";
import { basic } from "../types/typ";
import { andExpr, orExpr, simplifyExpr } from "./validation";

const minLen = (value: number) => ({ rule: "minLen" as const, value });
const maxLen = (value: number) => ({ rule: "maxLen" as const, value });
const isEmail = { rule: "isEmail" as const };
const isURL = { rule: "isURL" as const };

describe("validation expressions", () => {
  it("flattens & and | chains in source order", () => {
    expect(andExpr(andExpr(minLen(1), maxLen(5)), isEmail)).toEqual({ and: [minLen(1), maxLen(5), isEmail] });
    expect(orExpr(isEmail, orExpr(isURL, minLen(2)))).toEqual({ or: [isEmail, isURL, minLen(2)] });
    expect(andExpr(minLen(3), orExpr(isEmail, isURL))).toEqual({ and: [minLen(3), { or: [isEmail, isURL] }] });
  });

  it("merges same-kind bounds: tightest for &, loosest for |, and unwraps single rules", () => {
    expect(simplifyExpr({ and: [minLen(3), minLen(5)] })).toEqual(minLen(5));
    expect(simplifyExpr({ or: [minLen(10), minLen(30)] })).toEqual(minLen(10));
    expect(
      simplifyExpr({
        and: [
          { rule: "maxValue", value: 10 },
          { rule: "maxValue", value: 30 },
        ],
      }),
    ).toEqual({ rule: "maxValue", value: 10 });
    expect(simplifyExpr({ and: [minLen(3), maxLen(9), isEmail] })).toEqual({ and: [minLen(3), maxLen(9), isEmail] });
  });

  it("reports rules that do not fit the base type in Encore's words", () => {
    expect(unsupportedValidation(minLen(3), basic("number"))).toBe("unsupported validation: MinLen<3> cannot be applied to number");
    expect(unsupportedValidation({ and: [minLen(3), isEmail] }, basic("string"))).toBeNull();
    expect(unsupportedValidation({ rule: "minValue", value: 1 }, { t: "decimal" })).toBeNull();
    expect(unsupportedValidation(maxLen(3), { t: "array", elem: basic("string") })).toBeNull();
    // validation.rs Display: EndsWith lacks its closing `>` in Encore's message too.
    expect(unsupportedValidation({ rule: "endsWith", value: "x" }, basic("number"))).toBe(
      'unsupported validation: EndsWith<"x" cannot be applied to number',
    );
  });
});
