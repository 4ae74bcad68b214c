import Bowser from "bowser";
import { describe, expect, it, vi } from "vitest";
import { describeAgent, deviceKind } from "./user-agent";
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

describe("describeAgent", () => {
  it.each([
    [USER_AGENTS.desktop, { device: "desktop", browser: "Chrome", os: "Linux" }],
    [USER_AGENTS.mobile, { device: "mobile", browser: "Safari", os: "iOS" }],
    [USER_AGENTS.tablet, { device: "tablet", browser: "Safari", os: "iOS" }],
    [USER_AGENTS.bot, { device: "bot", browser: "Googlebot", os: "" }],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
      { device: "desktop", browser: "Firefox", os: "Windows" },
    ],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80",
      { device: "desktop", browser: "Microsoft Edge", os: "Windows" },
    ],
    ["curl/8.5.0", { device: "bot", browser: "", os: "" }],
  ])("names the families of %s", (ua, agent) => {
    expect(describeAgent(ua)).toEqual(agent);
  });

  it("keeps no part of a User-Agent it does not recognise: bowser's fallback would name the text before a slash", () => {
    const ua = `SecretInternalTool-${Math.random().toString(36).slice(2)}/1.0 (private build)`;
    expect(Bowser.getParser(ua).getBrowserName()).toContain("SecretInternalTool");
    expect(describeAgent(ua)).toEqual({ device: "desktop", browser: "", os: "" });
  });
});
