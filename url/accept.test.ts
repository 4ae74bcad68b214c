import { describe, expect, it } from "vitest";
import { prefersHtml } from "./accept";

describe("prefersHtml", () => {
  it.each([
    ["Chrome/Firefox navigation", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"],
    ["Safari navigation", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
    ["text/* only", "text/*"],
    ["json explicitly weighted lower", "application/json;q=0.5, text/html"],
    ["case and spaces", "Text/HTML ; Q=1.0 , application/json ; q=0.2"],
    ["most specific range wins", "text/html;q=0.9, */*;q=1, application/json;q=0.1"],
  ])("is true for %s", (_, accept) => {
    expect(prefersHtml(accept)).toBe(true);
  });

  it.each([
    ["no header", undefined],
    ["empty header", ""],
    ["curl's default", "*/*"],
    ["JSON client", "application/json"],
    ["a tie", "text/html, application/json"],
    ["html refused", "text/html;q=0, */*"],
    ["json above html", "text/html;q=0.5, application/json"],
    ["json through a wildcard above html", "text/html;q=0.4, application/*"],
    ["malformed q ignored", "text/html;q=2, application/json;q=0.1"],
    ["garbage", ";;, ,/,text"],
    ["neither type acceptable", "image/png"],
  ])("is false for %s", (_, accept) => {
    expect(prefersHtml(accept)).toBe(false);
  });
});
