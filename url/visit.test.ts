import Bowser from "bowser";
import { describe, expect, it, vi } from "vitest";
import { deviceKind, referrerHost } from "./visit";
import { USER_AGENTS } from "./__tests__/user-agents";

describe("deviceKind", () => {
  /** A Chrome User-Agent no other test has classified, so the cache cannot know it yet. */
  const freshChrome = (extra = "") =>
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.${Math.floor(Math.random() * 1e9)}.0 Safari/537.36${extra}`;

  it("classifies a User-Agent once and then remembers its kind", () => {
    const parse = vi.spyOn(Bowser, "getParser");
    try {
      const ua = freshChrome();
      expect(deviceKind(ua)).toBe("desktop");
      expect(deviceKind(ua)).toBe("desktop");
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it("classifies an overlong User-Agent every time instead of keeping it", () => {
    const parse = vi.spyOn(Bowser, "getParser");
    try {
      const ua = freshChrome(" x".repeat(600));
      expect(deviceKind(ua)).toBe("desktop");
      expect(deviceKind(ua)).toBe("desktop");
      expect(parse).toHaveBeenCalledTimes(2);
    } finally {
      parse.mockRestore();
    }
  });

  it.each(Object.entries(USER_AGENTS))("classifies a %s browser", (kind, ua) => {
    expect(deviceKind(ua)).toBe(kind);
  });

  it.each([
    [
      "an Android phone",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
      "mobile",
    ],
    [
      "an Android tablet",
      "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
      "tablet",
    ],
    [
      "macOS Safari",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
      "desktop",
    ],
    ["curl", "curl/8.5.0", "bot"],
    ["Node's fetch", "node", "bot"],
    ["Slack's link unfurler", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "bot"],
    ["no User-Agent", undefined, "bot"],
    ["an empty User-Agent", "  ", "bot"],
  ])("classifies %s", (_, ua, kind) => {
    expect(deviceKind(ua)).toBe(kind);
  });
});

describe("referrerHost", () => {
  it.each([
    ["https://News.Example.com./story/42?utm_source=x&email=me@example.com#c", "news.example.com"],
    ["http://[::1]:8080/x", "[::1]"],
    ["https://bücher.example/", "xn--bcher-kva.example"],
    ["android-app://com.google.android.gm/", "com.google.android.gm"],
  ])("keeps only the host of %s", (referer, host) => {
    expect(referrerHost(referer)).toBe(host);
  });

  it.each([
    ["no Referer", undefined],
    ["an empty Referer", ""],
    ["a relative Referer", "/somewhere"],
    ["a Referer without a host", "about:blank"],
    ["a host longer than DNS allows", `https://${"a".repeat(250)}.com/`],
  ])("records %s as no referrer", (_, referer) => {
    expect(referrerHost(referer)).toBe("");
  });
});
