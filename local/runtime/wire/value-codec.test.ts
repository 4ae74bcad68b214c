import { describe, expect, it } from "vitest";
import type { ObjectSchema, TypeSchema } from "../../model/app-model";
import { decodeJson, decodeValue, encodeJson } from "./value-codec";

const str: TypeSchema = { kind: "string" };
const num: TypeSchema = { kind: "number" };
const date: TypeSchema = { kind: "date" };

function field(name: string, type: TypeSchema, extra: Partial<ObjectSchema["fields"][number]> = {}) {
  return { name, wireName: name, optional: false, location: "default" as const, type, ...extra };
}

describe("decodeValue", () => {
  it("decodes unions by trying each variant, and names every alternative as de.rs does when none fits", () => {
    const nullable: TypeSchema = { kind: "union", types: [str, { kind: "null" }] };
    expect(decodeValue(nullable, null, ["x"], "json")).toBeNull();
    const nullableDate: TypeSchema = { kind: "union", types: [date, { kind: "null" }] };
    expect(() => decodeValue(nullableDate, "2027-02-30T00:00:00Z", ["at"], "json")).toThrow(
      'at: invalid type: string "2027-02-30T00:00:00Z", expected a datetime string or null',
    );
    const color: TypeSchema = {
      kind: "union",
      types: [
        { kind: "literal", value: "red" },
        { kind: "literal", value: "blue" },
      ],
    };
    expect(() => decodeValue(color, "green", ["c"], "json")).toThrow('c: invalid type: string "green", expected "red" or "blue"');
  });

  it("reports the path of a nested failure", () => {
    const t: TypeSchema = {
      kind: "object",
      fields: [field("items", { kind: "array", elem: { kind: "object", fields: [field("n", num)] } })],
    };
    expect(() => decodeValue(t, { items: [{ n: 1 }, { n: "2" }] }, [], "json")).toThrow(
      'items[1].n: invalid type: string "2", expected a number',
    );
  });

  it("parses text for numbers, booleans and dates", () => {
    expect(decodeValue(num, "-1.5e2", ["n"], "text")).toBe(-150);
    expect(decodeValue({ kind: "boolean" }, "false", ["b"], "text")).toBe(false);
    expect(decodeValue(date, "2026-01-01T00:00:00Z", ["d"], "text")).toEqual(new Date("2026-01-01T00:00:00Z"));
  });
});

describe("encodeJson and decodeJson", () => {
  it("keeps declared fields only, at every level, and writes Dates as RFC 3339", () => {
    const schema: ObjectSchema = { fields: [field("at", date), field("inner", { kind: "object", fields: [field("a", num)] })] };
    expect(encodeJson(schema, { at: new Date(0), inner: { a: 1, secret: "x" }, other: 2 })).toEqual({
      at: "1970-01-01T00:00:00Z",
      inner: { a: 1 },
    });
    expect(decodeJson(schema, { at: "1970-01-01T00:00:00.000Z", inner: { a: 1 } }, "msg")).toEqual({ at: new Date(0), inner: { a: 1 } });
  });

  // chrono's SecondsFormat::AutoSi (runtimes/core/src/api/pvalue.rs): a fraction only when there is one.
  it("writes whole-second Dates without a fraction and others with milliseconds, as Encore does", () => {
    const schema: ObjectSchema = { fields: [field("at", date)] };
    expect(encodeJson(schema, { at: new Date("2025-01-01T13:00:00.000Z") })).toEqual({ at: "2025-01-01T13:00:00Z" });
    expect(encodeJson(schema, { at: new Date("2025-01-01T13:00:00.120Z") })).toEqual({ at: "2025-01-01T13:00:00.120Z" });
  });
});
