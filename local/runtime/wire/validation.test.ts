import { describe, expect, it } from "vitest";
import { isEmail, validate } from "./validation";

describe("validate", () => {
  it("measures string length in UTF-8 bytes, as Encore does", () => {
    expect(validate({ rule: "maxLen", value: 3 }, "héé")).toBe("length too long (got 5, expected at most 3)");
    expect(validate({ rule: "minLen", value: 2 }, ["a"])).toBe("length too short (got 1, expected at least 2)");
  });

  it("checks numeric bounds", () => {
    expect(validate({ rule: "minValue", value: 1 }, 0)).toBe("value must be at least 1 (got 0)");
    expect(validate({ rule: "maxValue", value: 1.5 }, 2)).toBe("value must be at most 1.5 (got 2)");
    expect(validate({ rule: "maxValue", value: 1 }, "1")).toBe("unexpected type (expected number)");
  });

  it("checks prefixes, suffixes and patterns with quoted values", () => {
    expect(validate({ rule: "startsWith", value: "ab" }, "xab")).toBe('value does not start with "ab"');
    expect(validate({ rule: "endsWith", value: "ab" }, "abx")).toBe('value does not end with "ab"');
    expect(validate({ rule: "matchesRegexp", value: "^[a-z]+$" }, "A")).toBe('value does not match the regexp "^[a-z]+$"');
  });

  it("requires every rule of an and, and any rule of an or (reporting the first failure)", () => {
    const expr = { and: [{ rule: "minLen" as const, value: 3 }, { or: [{ rule: "isEmail" as const }, { rule: "isURL" as const }] }] };
    expect(validate(expr, "https://x.io")).toBeNull();
    expect(validate(expr, "a@b.co")).toBeNull();
    expect(validate(expr, "plain")).toBe("value is not an email");
    expect(validate(expr, "a")).toBe("length too short (got 1, expected at least 3)");
  });
});

describe("isEmail", () => {
  it.each(["a@b.co", "first.last+tag@sub.example.org", "x@[127.0.0.1]"])("accepts %s", (v) => expect(isEmail(v)).toBe(true));
  it.each(["", "a", "@b.co", "a@", "a b@c.d", "a@b..c", "a@-b.co", ".a@b.co", "Name <a@b.co>"])("refuses %j", (v) =>
    expect(isEmail(v)).toBe(false),
  );
});
