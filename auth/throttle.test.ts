import { randomUUID } from "node:crypto";
import { ErrCode } from "encore.dev/api";
import { describe, expect, it } from "vitest";
import { db } from "./db";
import { clearLoginFailures, LOGIN_THROTTLE, PRUNE_PER_ATTEMPT, reserveLoginAttempt } from "./throttle";
import { rejection } from "../local/testing";

const minute = 60 * 1000;

function freshEmail(): string {
  return `throttle-${randomUUID()}@example.com`;
}

async function reserveTimes(email: string, times: number, now: Date): Promise<void> {
  for (let i = 0; i < times; i++) await reserveLoginAttempt(email, now);
}

describe("login throttle", () => {
  it("allows 5 attempts in 15 minutes and refuses the 6th until the window ends", async () => {
    expect(LOGIN_THROTTLE).toEqual({ maxFailures: 5, windowMs: 15 * minute });
    const email = freshEmail();
    const start = new Date("2030-01-01T00:00:00Z");
    await reserveTimes(email, 5, start);

    const err = await rejection(reserveLoginAttempt(email, new Date(start.getTime() + 5 * minute)));
    expect(err.code).toBe(ErrCode.ResourceExhausted);
    expect(err.message).toBe("too many failed login attempts, try again later");
    expect(err.details).toEqual({ retryAfterSeconds: 10 * 60 });

    // Still refused just before the window closes, allowed again once it has.
    await rejection(reserveLoginAttempt(email, new Date(start.getTime() + 15 * minute - 1000)));
    await reserveLoginAttempt(email, new Date(start.getTime() + 15 * minute));
  });

  it("opens a fresh window after the old one passes, with a full allowance", async () => {
    const email = freshEmail();
    const start = new Date("2030-01-01T00:00:00Z");
    await reserveTimes(email, 3, start);
    const later = new Date(start.getTime() + 16 * minute);
    await reserveTimes(email, 5, later);
    await rejection(reserveLoginAttempt(email, later));
  });

  it("forgets failures after a successful login", async () => {
    const email = freshEmail();
    const now = new Date();
    await reserveTimes(email, 5, now);
    await clearLoginFailures(email);
    const row = await db.queryRow`SELECT failures FROM login_throttle WHERE email = ${email}`;
    expect(row).toBeNull();
    await reserveTimes(email, 5, now);
  });

  it("counts each email separately", async () => {
    const [a, b] = [freshEmail(), freshEmail()];
    const now = new Date();
    await reserveTimes(a, 5, now);
    await rejection(reserveLoginAttempt(a, now));
    await reserveLoginAttempt(b, now);
  });

  it("takes thresholds as a parameter", async () => {
    const email = freshEmail();
    const now = new Date();
    const policy = { maxFailures: 1, windowMs: 1000 };
    await reserveLoginAttempt(email, now, policy);
    await rejection(reserveLoginAttempt(email, now, policy));
    await reserveLoginAttempt(email, new Date(now.getTime() + 1000), policy);
  });

  it("lets no more than the limit through when attempts race", async () => {
    const email = freshEmail();
    const now = new Date();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => reserveLoginAttempt(email, now)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
  });

  it("deletes a few rows whose window has ended on every attempt, so made-up emails do not pile up", async () => {
    // A clock in 2001: no other test's rows have ended windows then, only the ones seeded here.
    const now = new Date("2001-01-01T00:00:00.000Z");
    const expired = Array.from({ length: 2 * PRUNE_PER_ATTEMPT + 5 }, freshEmail);
    const live = freshEmail();
    for (const email of expired) {
      await db.exec`INSERT INTO login_throttle (email, failures, window_start) VALUES (${email}, 3, ${new Date("2000-06-01T00:00:00Z")})`;
    }
    await db.exec`INSERT INTO login_throttle (email, failures, window_start) VALUES (${live}, 3, ${new Date(now.getTime() - 5 * minute)})`;
    const attempts = [freshEmail(), freshEmail(), freshEmail()];

    await reserveLoginAttempt(attempts[0], now);
    const left = await db.queryRow<{ n: number }>`SELECT COUNT(*)::int AS n FROM login_throttle WHERE email = ANY(${expired})`;
    expect(left?.n).toBe(expired.length - PRUNE_PER_ATTEMPT);
    for (const email of attempts.slice(1)) await reserveLoginAttempt(email, now);

    const remaining = await db.queryAll<{ email: string }>`
      SELECT email FROM login_throttle WHERE email = ANY(${[...expired, live, ...attempts]}) ORDER BY email`;
    expect(remaining.map((r) => r.email)).toEqual([live, ...attempts].sort());
    await db.exec`DELETE FROM login_throttle WHERE email = ANY(${[live, ...attempts]})`;
  });
});
