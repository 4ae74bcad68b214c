import { describe, expect, it } from "vitest";
import { mergeUtm } from "./utm-merge";

describe("mergeUtm", () => {
  it.each([
    ["no query", "https://example.com/a", { source: "news" }, "https://example.com/a?utm_source=news"],
    ["an empty query", "https://example.com/a?", { source: "news" }, "https://example.com/a?utm_source=news"],
    [
      "an existing query, kept in order and encoding",
      "https://example.com/a?b=%2F&c=x+y&d",
      { source: "news", medium: "email" },
      "https://example.com/a?b=%2F&c=x+y&d&utm_source=news&utm_medium=email",
    ],
    [
      "a fragment, kept after the query",
      "https://example.com/a?x=1#section?utm_source=no",
      { campaign: "launch" },
      "https://example.com/a?x=1&utm_campaign=launch#section?utm_source=no",
    ],
    [
      "a parameter of the same name, replaced in place",
      "https://example.com/a?utm_source=old&x=1",
      { source: "new" },
      "https://example.com/a?utm_source=new&x=1",
    ],
    [
      "repeated parameters: the first replaced, the repeats dropped, other repeats kept",
      "https://example.com/a?utm_source=1&k=a&utm_source=2&k=b",
      { source: "3" },
      "https://example.com/a?utm_source=3&k=a&k=b",
    ],
    [
      "an encoded parameter name",
      "https://example.com/a?utm%5Fsource=old&x=1",
      { source: "new" },
      "https://example.com/a?utm_source=new&x=1",
    ],
    [
      "values that need encoding",
      "https://example.com/a",
      { source: "a b&c=d", term: "café/ü" },
      "https://example.com/a?utm_source=a%20b%26c%3Dd&utm_term=caf%C3%A9%2F%C3%BC",
    ],
    [
      "empty values, ignored",
      "https://example.com/a?utm_medium=keep",
      { source: "", medium: "  " },
      "https://example.com/a?utm_medium=keep",
    ],
    [
      "all five, in their order",
      "https://example.com/",
      { content: "e", term: "d", campaign: "c", medium: "b", source: "a" },
      "https://example.com/?utm_source=a&utm_medium=b&utm_campaign=c&utm_term=d&utm_content=e",
    ],
  ])("merges into %s", (_, href, utm, expected) => {
    expect(mergeUtm(href, utm)).toBe(expected);
    // What was merged reads back as the values given.
    const params = new URL(expected).searchParams;
    for (const [name, value] of Object.entries(utm)) if (value.trim() !== "") expect(params.get(`utm_${name}`)).toBe(value.trim());
  });

  it("removes all five with null, and the query's ? when nothing else is left", () => {
    expect(mergeUtm("https://example.com/a?utm_source=x&y=%20&utm_term=t#f", null)).toBe("https://example.com/a?y=%20#f");
    expect(mergeUtm("https://example.com/a?utm_source=x#f", null)).toBe("https://example.com/a#f");
    expect(mergeUtm("https://example.com/a#f", null)).toBe("https://example.com/a#f");
  });
});
