// Shortening limits over HTTP: per client address and per user, each refused with 429
// resource_exhausted and retryAfterSeconds, each independent of the other, and reset by the next window.
import { afterAll, beforeAll, expect, it } from "vitest";
import { cacheClusterKeys, describeLocal, startTestServer, type TestServer } from "../local/testing";
import { inOneWindow, useEnv, type RateLimitedBody } from "../ratelimit/__tests__/windows";
import { signUp } from "./__tests__/helpers";

const WINDOW_S = 5;

describeLocal("shortening rate limits over HTTP", () => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  useEnv({ RATE_LIMIT_SHORTEN: `3/${WINDOW_S}s`, RATE_LIMIT_SHORTEN_PER_USER: `2/${WINDOW_S}s`, TRUSTED_PROXY_HOPS: "1" });
  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = [await signUp(server.baseUrl), await signUp(server.baseUrl)];
    // The first link loads the QR encoder and the bucket; later windows must not wait for that.
    expect((await shorten(bob, "192.0.2.250")).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** POSTs /shorten as the token's user from `from` (as one trusted proxy writes X-Forwarded-For). */
  async function shorten(token: string, from: string) {
    const resp = await fetch(`${server.baseUrl}/shorten`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`, "X-Forwarded-For": from },
      body: JSON.stringify({ url: "https://example.com/limits" }),
    });
    return { status: resp.status, body: (await resp.json()) as RateLimitedBody };
  }

  it("limits each user and each address on its own, and the next window starts afresh", async () => {
    const seen = await inOneWindow(WINDOW_S, async () => ({
      alice: [(await shorten(alice, "198.51.100.50")).status, (await shorten(alice, "198.51.100.50")).status],
      aliceThird: await shorten(alice, "198.51.100.50"),
      bobSameAddress: await shorten(bob, "198.51.100.50"),
      bobElsewhere: (await shorten(bob, "198.51.100.51")).status,
      aliceElsewhere: (await shorten(alice, "198.51.100.51")).status,
      cache: await cacheClusterKeys("rate-limits"),
    }));
    expect(seen.alice).toEqual([200, 200]);
    expect(seen.aliceThird.status).toBe(429);
    expect(seen.aliceThird.body).toMatchObject({
      code: "resource_exhausted",
      message: "too many links shortened by this account, try again later",
    });
    expect(seen.aliceThird.body.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(seen.aliceThird.body.details.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_S);
    expect(seen.bobSameAddress.status).toBe(429);
    expect(seen.bobSameAddress.body.message).toBe("too many links shortened from this address, try again later");
    expect(seen.bobElsewhere).toBe(200);
    expect(seen.aliceElsewhere).toBe(429);
    const keys = seen.cache.keys.map((k) => k.key);
    expect(keys.some((k) => k.startsWith("url/shorten/198.51.100.50/"))).toBe(true);
    expect(keys.some((k) => /^url\/shorten-per-user\/\d+\//.test(k))).toBe(true);
    for (const { ttlMs } of seen.cache.keys) expect(ttlMs).toBeGreaterThan(0);

    await new Promise((r) => setTimeout(r, seen.aliceThird.body.details.retryAfterSeconds * 1000));
    expect((await shorten(alice, "198.51.100.50")).status).toBe(200);
  });
});
