// Sign-up and login rate limits per client address, over HTTP as clients meet them: the N+1-th
// request in a window is 429 resource_exhausted with retryAfterSeconds, another address is not
// affected, the next window works again, and the counters live (and expire) in the cache cluster.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cacheClusterKeys, describeLocal, startTestServer, type TestServer } from "../local/testing";
import { inOneWindow, useEnv, type RateLimitedBody } from "../ratelimit/__tests__/windows";

const WINDOW_S = 5;
const password = "limits test password";

/** Signs up once from an unused address, so the app is loaded and migrated before windows are timed. */
async function warmUp(server: TestServer): Promise<void> {
  const resp = await fetch(`${server.baseUrl}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "192.0.2.250" },
    body: JSON.stringify({ email: `warm-up-${randomUUID()}@example.com`, password }),
  });
  expect(resp.status).toBe(200);
}

describeLocal("sign-up and login rate limits over HTTP", () => {
  let server: TestServer;
  useEnv({ RATE_LIMIT_SIGNUP: `2/${WINDOW_S}s`, RATE_LIMIT_LOGIN: `3/${WINDOW_S}s`, TRUSTED_PROXY_HOPS: "1" });
  beforeAll(async () => {
    server = await startTestServer();
    await warmUp(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** POSTs as a client at `from` (X-Forwarded-For as one trusted proxy would write it). */
  async function post(path: string, body: unknown, from: string) {
    const resp = await fetch(server.baseUrl + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
      body: JSON.stringify(body),
    });
    return { status: resp.status, headers: resp.headers, body: (await resp.json()) as RateLimitedBody };
  }
  const signup = (from: string, email = `limits-${randomUUID()}@example.com`) => post("/auth/signup", { email, password }, from);
  const login = (from: string, email: string, pw = password) => post("/auth/login", { email, password: pw }, from);

  it("refuses the third sign-up from an address in a window, not another address's, and allows it in the next window", async () => {
    const seen = await inOneWindow(WINDOW_S, async () => ({
      allowed: [(await signup("198.51.100.1")).status, (await signup("198.51.100.1")).status],
      refused: await signup("198.51.100.1"),
      otherAddress: (await signup("198.51.100.2")).status,
      cache: await cacheClusterKeys("rate-limits"),
    }));
    const { refused, cache } = seen;
    expect(seen.allowed).toEqual([200, 200]);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "resource_exhausted", message: "too many sign-ups from this address, try again later" });
    expect(refused.body.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.body.details.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_S);
    expect(seen.otherAddress).toBe(200);

    expect(cache.prefix).toMatch(/^test-[^/]+\/rate-limits\/$/);
    const counter = cache.keys.find((k) => k.key.startsWith("auth/signup/198.51.100.1/"));
    expect(counter?.ttlMs).toBeGreaterThan(0);
    expect(counter?.ttlMs).toBeLessThanOrEqual(WINDOW_S * 1000);

    await new Promise((r) => setTimeout(r, refused.body.details.retryAfterSeconds * 1000));
    expect((await signup("198.51.100.1")).status).toBe(200);
    const after = await cacheClusterKeys("rate-limits");
    expect(after.keys.map((k) => k.key)).not.toContain(counter?.key);
  });

  it("counts an IPv6 caller's whole /64 as one address", async () => {
    const statuses = await inOneWindow(WINDOW_S, async () => [
      (await signup("2001:db8:7:7::1")).status,
      (await signup("2001:db8:7:7::2")).status,
      (await signup("2001:db8:7:7:ffff::3")).status,
      (await signup("2001:db8:7:8::1")).status,
    ]);
    expect(statuses).toEqual([200, 200, 429, 200]);
  });

  it("limits login attempts per address before the per-email throttle sees them", async () => {
    const seen = await inOneWindow(WINDOW_S, async () => {
      const emails = [`victim-${randomUUID()}@example.com`, `other-${randomUUID()}@example.com`];
      for (const [i, email] of emails.entries()) expect((await signup(`198.51.100.${10 + i}`, email)).status).toBe(200);
      const attacker = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
      // An attacker's address spends its attempts on wrong passwords...
      const failed = [];
      for (let i = 0; i < 3; i++) failed.push((await login(attacker, emails[i % 2], "wrong password")).status);
      // ...then is refused, even with the right password, and those refusals cost the emails nothing.
      const refused = [];
      for (let i = 0; i < 10; i++) refused.push(await login(attacker, emails[0], "wrong password"));
      const rightPassword = (await login(attacker, emails[0])).status;
      // The owner, from another address, still gets in: the victim's email used 2 of its 5 failures.
      const owner = (await login("198.51.100.10", emails[0])).status;
      return { failed, refused, rightPassword, owner };
    });
    expect(seen.failed).toEqual([401, 401, 401]);
    expect(seen.refused.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(seen.refused[0].body.message).toBe("too many login attempts from this address, try again later");
    expect(seen.rightPassword).toBe(429);
    expect(seen.owner).toBe(200);
  });

  it("ignores X-Forwarded-For entries before the trusted proxy's", async () => {
    // The client forged the first entry; the trusted proxy appended the real one.
    const statuses = await inOneWindow(WINDOW_S, async () => [
      (await signup("1.1.1.1, 198.51.100.30")).status,
      (await signup("2.2.2.2, 198.51.100.30")).status,
      (await signup("3.3.3.3, 198.51.100.30")).status,
    ]);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describeLocal("per-address limits without a trusted proxy", () => {
  let server: TestServer;
  useEnv({ RATE_LIMIT_SIGNUP: `2/${WINDOW_S}s`, TRUSTED_PROXY_HOPS: undefined });
  beforeAll(async () => {
    server = await startTestServer();
    await warmUp(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("count the socket's address, whatever X-Forwarded-For a client sends", async () => {
    const statuses = await inOneWindow(WINDOW_S, async () => {
      const out: number[] = [];
      for (const forged of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
        const resp = await fetch(`${server.baseUrl}/auth/signup`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-Forwarded-For": forged },
          body: JSON.stringify({ email: `forged-${randomUUID()}@example.com`, password }),
        });
        out.push(resp.status);
      }
      return out;
    });
    expect(statuses).toEqual([200, 200, 429]);
  });
});
