// Endpoint path syntax with Encore's messages (respath.rs).
import { describe, expect, it } from "vitest";
import { parsePath } from "./respath";

describe("parsePath", () => {
  it("splits literal, param, wildcard and fallback segments", () => {
    expect(parsePath("/a/:b/*c")).toEqual({
      segments: [
        { kind: "literal", value: "a" },
        { kind: "param", name: "b" },
        { kind: "wildcard", name: "c" },
      ],
    });
    expect(parsePath("/")).toEqual({ segments: [{ kind: "literal", value: "" }] });
    expect(parsePath("/x/!fb")).toEqual({
      segments: [
        { kind: "literal", value: "x" },
        { kind: "fallback", name: "fb" },
      ],
    });
  });

  it.each([
    ["", "empty path"],
    ["foo", "path must start with '/'"],
    ["/foo/", "path cannot contain empty path segment"],
    ["/foo//bar", "path cannot contain empty path segment"],
    ["/:foo/*", "path parameters must have a name"],
    ["/:/x", "path parameters must have a name"],
    ["/:foo/*bar/baz", "wildcard segment must be at the end of the path"],
    ["/!fb/x", "fallback segment must be at the end of the path"],
    ["/foo?bar=baz", "path cannot contain query parameters (the '?' character)"],
    ["/foo#bar", "path cannot contain url fragment (the '#' character)"],
  ])("rejects %j", (path, error) => {
    expect(parsePath(path)).toEqual({ error });
  });
});
