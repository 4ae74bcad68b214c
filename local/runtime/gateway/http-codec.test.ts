import http from "node:http";
import { describe, expect, it } from "vitest";
import type { EndpointModel, ObjectSchema, TypeSchema } from "../../model/app-model";
import { decodeHttpRequest, encodeHttpResponse } from "./http-codec";
import { WireErrorSignal } from "../wire/errors";

const str: TypeSchema = { kind: "string" };
const num: TypeSchema = { kind: "number" };

function field(name: string, type: TypeSchema, extra: Partial<ObjectSchema["fields"][number]> = {}) {
  return { name, wireName: name, optional: false, location: "default" as const, type, ...extra };
}

function endpoint(
  request: ObjectSchema | null,
  response: ObjectSchema | null,
  methods: EndpointModel["methods"] = ["POST"],
  path = "/x",
): EndpointModel {
  return {
    service: "s",
    name: "e",
    file: "s/e.ts",
    loc: { file: "s/e.ts", line: 1, column: 1 },
    methods,
    path,
    expose: true,
    auth: false,
    raw: false,
    bodyLimit: null,
    tags: [],
    sensitive: false,
    doc: null,
    request,
    response,
    staticAssets: null,
  };
}

function decodeError(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof WireErrorSignal) return `${e.wire.code}: ${e.wire.message}`;
    throw e;
  }
  throw new Error("expected a decode error");
}

describe("decodeHttpRequest", () => {
  const req = {
    fields: [
      field("id", str),
      field("limit", num, { optional: true }),
      field("token", str, { location: "header", wireName: "X-Token", optional: true }),
    ],
  };

  it("reads fields from the query string for GET and from the body for POST", () => {
    const base = { pathParams: {}, headers: {}, cookies: {}, body: Buffer.alloc(0) };
    expect(decodeHttpRequest(endpoint(req, null, ["GET"]), { ...base, method: "GET", query: new URLSearchParams("id=a&limit=3") })).toEqual(
      { id: "a", limit: 3 },
    );
    expect(
      decodeHttpRequest(endpoint(req, null), {
        ...base,
        method: "POST",
        query: new URLSearchParams("id=ignored"),
        body: Buffer.from('{"id":"b","extra":1}'),
      }),
    ).toEqual({ id: "b" });
  });

  it("names a missing header", () => {
    const withHeader = { fields: [field("token", str, { location: "header", wireName: "X-Token" })] };
    const parts = { method: "GET", pathParams: {}, query: new URLSearchParams(), headers: {}, cookies: {}, body: Buffer.alloc(0) };
    expect(decodeError(() => decodeHttpRequest(endpoint(withHeader, null, ["GET"]), parts))).toBe(
      "invalid_argument: missing header parameter: X-Token",
    );
  });

  it("refuses an empty body even when every body field is optional, as Encore's serde decoding does", () => {
    const optional = { fields: [field("note", str, { optional: true })] };
    const parts = { method: "POST", pathParams: {}, query: new URLSearchParams(), headers: {}, cookies: {}, body: Buffer.alloc(0) };
    expect(decodeError(() => decodeHttpRequest(endpoint(optional, null), parts))).toBe(
      "invalid_argument: unable to decode request body: EOF while parsing a value at line 1 column 0",
    );
    expect(decodeHttpRequest(endpoint(optional, null), { ...parts, body: Buffer.from("{}") })).toEqual({});
  });

  // serde_path_to_error's path (jsonschema/mod.rs `deserialize`): keys joined by ".", indexes as [i],
  // the failing object's path for a missing field, none at the top level; serde_json's position last.
  it("names a body error's path as Encore does, with serde_json's position", () => {
    const item: TypeSchema = { kind: "object", fields: [field("name", str)] };
    const order = { fields: [field("id", str), field("items", { kind: "array", elem: item })] };
    const parts = { method: "POST", pathParams: {}, query: new URLSearchParams(), headers: {}, cookies: {} };
    const decode = (body: string) => decodeError(() => decodeHttpRequest(endpoint(order, null), { ...parts, body: Buffer.from(body) }));
    const prefix = "invalid_argument: unable to decode request body";
    expect(decode('{"id":"a","items":[{"name":"x"},{"name":"y"},{"name":5}]}')).toBe(
      `${prefix}: items[2].name: invalid type: integer \`5\`, expected a string at line 1 column 54`,
    );
    expect(decode('{"id":"a","items":[{}]}')).toBe(`${prefix}: items[0]: missing field name at line 1 column 21`);
    expect(decode('{"items":[]}')).toBe(`${prefix}: missing field id at line 1 column 12`);
  });

  it("returns null for endpoints without parameters", () => {
    const parts = { method: "POST", pathParams: {}, query: new URLSearchParams(), headers: {}, cookies: {}, body: Buffer.from("{}") };
    expect(decodeHttpRequest(endpoint(null, null), parts)).toBeNull();
  });
});

describe("encodeHttpResponse", () => {
  it("splits status, headers, cookies and body", () => {
    const schema: ObjectSchema = {
      fields: [
        field("status", num, { location: "httpstatus" }),
        field("loc", str, { location: "header", wireName: "Location" }),
        field("session", str, { location: "cookie", wireName: "sid" }),
        field("id", str),
      ],
    };
    const out = encodeHttpResponse(endpoint(null, schema), { status: 201, loc: "/a", session: { value: "v 1", httpOnly: true }, id: "a" });
    expect(out).toEqual({ status: 201, headers: { Location: "/a", "Set-Cookie": ["sid=v 1; HttpOnly"] }, body: { id: "a" } });
  });

  // HeaderValue::from_str (http crate) keeps a string's UTF-8 bytes, and a Date value is written with
  // to_rfc3339 (api/pvalue.rs Display); node writes a header string as latin1 and refuses any other character.
  it("writes a cookie's UTF-8 bytes and a Date value as Encore does", () => {
    const schema: ObjectSchema = { fields: [field("a", str, { location: "cookie" }), field("b", str, { location: "cookie" })] };
    const out = encodeHttpResponse(endpoint(null, schema), {
      a: { value: "café €" },
      b: { value: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) },
    });
    const lines = out.headers["Set-Cookie"] as string[];
    for (const line of lines) expect(() => http.validateHeaderValue("Set-Cookie", line)).not.toThrow();
    expect(lines.map((line) => Buffer.from(line, "latin1").toString("utf8"))).toEqual(["a=café €", "b=2024-01-02T03:04:05+00:00"]);
  });

  it("sends no body when the response has no body fields", () => {
    const schema: ObjectSchema = {
      fields: [field("status", num, { location: "httpstatus" }), field("loc", str, { location: "header", wireName: "Location" })],
    };
    expect(encodeHttpResponse(endpoint(null, schema), { status: 302, loc: "https://x" })).toEqual({
      status: 302,
      headers: { Location: "https://x" },
      body: null,
    });
  });
});
