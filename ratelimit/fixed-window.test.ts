// Fixed windows counted in the rate-limits cache cluster: the limit, the window's end, and a cache outage.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { CacheCluster, IntKeyspace } from "encore.dev/storage/cache";
import { captureLogs, rejection } from "../local/testing";
import { FixedWindowLimit, type WindowKey } from "./fixed-window";

const counters = new IntKeyspace<WindowKey>(CacheCluster.named("rate-limits"), { keyPattern: "test/:limit/:subject/:window" });
const limit = new FixedWindowLimit(counters, "signup", "too many tries");

const saved = process.env.RATE_LIMIT_SIGNUP;
afterEach(() => {
  process.env.RATE_LIMIT_SIGNUP = saved;
});

describe("FixedWindowLimit", () => {
  it("allows max requests per window, then fails with the seconds left in the window", async () => {
    process.env.RATE_LIMIT_SIGNUP = "3/1m";
    const subject = randomUUID();
    const start = 1_700_000_040_000 + 40_000; // 40 s into a minute
    for (let i = 0; i < 3; i++) await limit.hit(subject, start + i);
    const err = await rejection(limit.hit(subject, start + 5_500));
    expect(err.code).toBe(ErrCode.ResourceExhausted);
    expect(err.message).toBe("too many tries, try again later");
    expect(err.details).toEqual({ retryAfterSeconds: 15 });
    // The next window starts at the minute, with a fresh count; another subject never shared the old one.
    await limit.hit(subject, start + 20_000);
    await limit.hit(randomUUID(), start + 5_600);
  });

  it("counts concurrent requests exactly", async () => {
    process.env.RATE_LIMIT_SIGNUP = "10/1h";
    const subject = randomUUID();
    const now = Date.now();
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => limit.hit(subject, now)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
  });

  it("does nothing when the limit is off", async () => {
    process.env.RATE_LIMIT_SIGNUP = "off";
    const subject = randomUUID();
    for (let i = 0; i < 50; i++) await limit.hit(subject);
  });

  it("lets requests through when the cache fails", async () => {
    process.env.RATE_LIMIT_SIGNUP = "1/1h";
    const broken = {
      increment: () => Promise.reject(new Error("cache increment: connection refused")),
    } as unknown as IntKeyspace<WindowKey>;
    const failing = new FixedWindowLimit(broken, "signup", "too many tries");
    captureLogs({
      level: "ERR",
      msg: "rate limit not checked: the cache failed",
      fields: { limit: "signup", err: "cache increment: connection refused" },
    });
    await failing.hit("a");
    await failing.hit("a");
  });
});
