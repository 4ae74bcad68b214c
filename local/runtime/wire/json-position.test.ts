import { describe, expect, it } from "vitest";
import { serdePosition } from "./json-position";

// serde_json reports the reader's position when a value fails: past the value, or past the bracket
// of a container its type refused; lines from 1, columns in bytes from 0.
describe("serdePosition", () => {
  it("points just past the value at the path", () => {
    const body = '{"url": "https://x.example", "expiresAt": "2027-02-30T00:00:00Z"}';
    expect(serdePosition(body, ["expiresAt"], false)).toBe(` at line 1 column ${body.length - 1}`);
    expect(serdePosition('{"a": [1, {"b": true}]}', ["a", 1, "b"], false)).toBe(" at line 1 column 20");
  });

  it("points past the closing brace for the object itself, and past an opening bracket the type refused", () => {
    expect(serdePosition('{"a": {"b": 1} }', ["a"], false)).toBe(" at line 1 column 14");
    expect(serdePosition('{"a": {"b": 1} }', ["a"], true)).toBe(" at line 1 column 7");
    expect(serdePosition("[1, 2]", [], true)).toBe(" at line 1 column 1");
  });

  it("counts lines and bytes, and takes a repeated key's last value as JSON.parse does", () => {
    expect(serdePosition('{\n  "é": 1,\n  "x": "ü"\n}', ["x"], false)).toBe(" at line 3 column 11");
    expect(serdePosition('{"x": 1, "x": 22}', ["x"], false)).toBe(" at line 1 column 16");
  });
});
