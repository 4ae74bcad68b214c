import { describe, expect, it } from "vitest";
import { appMeta } from "encore.dev";
import { ownHosts, parseBaseUrl, publicBaseUrl, shortUrl } from "./base-url";

describe("parseBaseUrl", () => {
  it.each([
    ["https://sho.rt", "https://sho.rt"],
    ["https://sho.rt/", "https://sho.rt"],
    ["HTTPS://Sho.RT:8443/s/", "https://sho.rt:8443/s"],
    ["http://127.0.0.1:4000", "http://127.0.0.1:4000"],
    // Refused: not an absolute http(s) URL, or one with credentials, a query or a fragment.
    ["", null],
    ["sho.rt", null],
    ["/s", null],
    ["ftp://sho.rt", null],
    ["https://u:p@sho.rt", null],
    ["https://sho.rt/?x=1", null],
    ["https://sho.rt/?", null],
    ["https://sho.rt/#a", null],
  ])("reads %j as %j", (value, base) => {
    expect(parseBaseUrl(value)).toBe(base);
  });
});

describe("publicBaseUrl", () => {
  it("is the API base URL when ShortLinkBaseURL is not set", () => {
    expect(publicBaseUrl()).toBe(parseBaseUrl(appMeta().apiBaseUrl));
    expect(shortUrl(publicBaseUrl(), "abc123")).toBe(`${publicBaseUrl()}/abc123`);
  });

  it("names both the short-link host and the API host as the shortener's own", () => {
    expect(ownHosts("https://sho.rt")).toEqual(["sho.rt", new URL(appMeta().apiBaseUrl).hostname]);
  });
});
