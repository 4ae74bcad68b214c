// Rate-limit settings: the format operators write, defaults, and what a typo does.
import { afterEach, describe, expect, it } from "vitest";
import { captureLogs } from "../local/testing";
import { LIMITS, parseLimit, trustedProxyHops, windowLimit } from "./settings";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("rate-limit settings", () => {
  it("parses <max>/<window> in seconds, minutes or hours, and off", () => {
    expect(parseLimit("20/1h")).toEqual({ max: 20, windowMs: 3_600_000 });
    expect(parseLimit(" 5 / 30s ")).toEqual({ max: 5, windowMs: 30_000 });
    expect(parseLimit("100/15m")).toEqual({ max: 100, windowMs: 900_000 });
    expect(parseLimit("off")).toBeNull();
    for (const bad of ["", "20", "20/h", "0/1h", "5/0s", "-1/1h", "5/1d", "5/1.5h", "lots/1h"])
      expect(parseLimit(bad), bad).toBeUndefined();
  });

  it("has a valid default for every limit", () => {
    for (const { fallback } of Object.values(LIMITS)) expect(parseLimit(fallback)).toBeTruthy();
  });

  it("reads the environment on each use and falls back to the default on a malformed value", () => {
    delete process.env.RATE_LIMIT_SIGNUP;
    expect(windowLimit("signup")).toEqual({ max: 20, windowMs: 3_600_000 });
    process.env.RATE_LIMIT_SIGNUP = "2/5s";
    expect(windowLimit("signup")).toEqual({ max: 2, windowMs: 5_000 });
    captureLogs({ level: "ERR", msg: /^invalid RATE_LIMIT_SIGNUP="two per hour": .*; using 20\/1h$/ });
    process.env.RATE_LIMIT_SIGNUP = "two per hour";
    expect(windowLimit("signup")).toEqual({ max: 20, windowMs: 3_600_000 });
    process.env.RATE_LIMIT_SIGNUP = "off";
    expect(windowLimit("signup")).toBeNull();
  });

  it("trusts no proxy unless told how many hops to trust", () => {
    delete process.env.TRUSTED_PROXY_HOPS;
    expect(trustedProxyHops()).toBe(0);
    process.env.TRUSTED_PROXY_HOPS = "2";
    expect(trustedProxyHops()).toBe(2);
    captureLogs({ level: "ERR", msg: 'invalid TRUSTED_PROXY_HOPS="yes": expected a whole number; trusting no proxy' });
    process.env.TRUSTED_PROXY_HOPS = "yes";
    expect(trustedProxyHops()).toBe(0);
  });
});
