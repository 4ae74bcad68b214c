import { describe, expect, it } from "vitest";
import { prefersHtml } from "./accept";

describe("prefersHtml", () => {
  it.each([
    [true, "Chrome/Firefox navigation", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"],
    [true, "Safari navigation", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
    [true, "text/* only", "text/*"],
    [true, "json explicitly weighted lower", "application/json;q=0.5, text/html"],
    [true, "case and spaces", "Text/HTML ; Q=1.0 , application/json ; q=0.2"],
    [true, "most specific range wins", "text/html;q=0.9, */*;q=1, application/json;q=0.1"],
    [false, "no header", undefined],
    [false, "empty header", ""],
    [false, "curl's default", "*/*"],
    [false, "JSON client", "application/json"],
    [false, "a tie", "text/html, application/json"],
    [false, "a tie through a wildcard", "*/*, text/html"],
    [false, "html refused", "text/html;q=0, */*"],
    [false, "json above html", "text/html;q=0.5, application/json"],
    [false, "json through a wildcard above html", "text/html;q=0.4, application/*"],
    [false, "malformed q ignored", "text/html;q=2, application/json;q=0.1"],
    [false, "garbage", ";;, ,/,text"],
    [false, "neither type acceptable", "image/png"],
  ])("is %s for %s", (html, _, accept) => {
    expect(prefersHtml(accept)).toBe(html);
  });
});
