// Password-protected links over HTTP: the password page for browsers, 403 for API clients, unlock with
// the right password only (rate limited), stats only for the owner, HEAD without a click, set and removed.
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import { inOneWindow, useEnv } from "../ratelimit/__tests__/windows";
import { db } from "./db";
import { serveApiForThisFile } from "./__tests__/helpers";

const WINDOW_S = 5;
const BROWSER = { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

async function clicksOf(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

describeLocal("password-protected links over HTTP", () => {
  useEnv({ RATE_LIMIT_UNLOCK: `3/${WINDOW_S}s`, TRUSTED_PROXY_HOPS: "1" });
  const api = serveApiForThisFile(2);
  const { call } = api;

  async function shortenProtected(target: string, password = "open sesame"): Promise<string> {
    const resp = await call("POST", "/shorten", api.tokens[0], { url: target, password });
    expect(resp.status).toBe(200);
    return ((await resp.json()) as { code: string }).code;
  }

  it("sends browsers a password page without the target, API clients a 403, and counts nothing", async () => {
    const code = await shortenProtected("https://example.com/secret-target?x=1");
    const page = await call("GET", `/${code}`, undefined, undefined, BROWSER);
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("This link is protected by a password");
    expect(html).toContain('type="password"');
    expect(html).not.toContain("example.com");
    expect(html).not.toContain("secret-target");

    await expectErrorResponse(await call("GET", `/${code}`), 403, { code: "permission_denied", message: "password required" });
    const head = await call("HEAD", `/${code}`, undefined, undefined, BROWSER);
    expect({ status: head.status, body: await head.text() }).toEqual({ status: 403, body: "" });
    expect(await clicksOf(code)).toBe(0);
  });

  it("unlocks with the right password only, counting one click for it", async () => {
    const code = await shortenProtected("https://example.com/unlock-me");
    await expectErrorResponse(await call("POST", `/${code}/unlock`, undefined, { password: "not the one" }), 403, {
      code: "permission_denied",
      message: "wrong password",
    });
    expect(await clicksOf(code)).toBe(0);
    const right = await call("POST", `/${code}/unlock`, undefined, { password: "open sesame" });
    expect({ status: right.status, body: await right.json() }).toEqual({ status: 200, body: { url: "https://example.com/unlock-me" } });
    expect(await clicksOf(code)).toBe(1);
    await expectErrorResponse(await call("POST", "/nosuchcode/unlock", undefined, { password: "open sesame" }), 404, {
      code: "not_found",
      message: "URL not found",
    });
  });

  it("shows a protected link's stats to its owner only", async () => {
    const code = await shortenProtected("https://example.com/stats-of-secret");
    expect((await call("GET", `/${code}/stats`, api.tokens[0])).status).toBe(200);
    for (const token of [undefined, api.tokens[1]]) {
      await expectErrorResponse(await call("GET", `/${code}/stats`, token), 403, {
        code: "permission_denied",
        message: "password required",
      });
    }
  });

  it("shows a protected link's stats to any member of its workspace, a viewer too", async () => {
    const team = (await (await call("POST", "/workspaces", api.tokens[0], { name: "Protected team" })).json()) as { id: string };
    const invite = (await (await call("POST", `/workspaces/${team.id}/invites`, api.tokens[0], { role: "viewer" })).json()) as {
      token: string;
    };
    expect((await call("POST", `/invites/${invite.token}/accept`, api.tokens[1])).status).toBe(200);
    const resp = await call("POST", "/shorten", api.tokens[0], {
      url: "https://example.com/team-secret",
      password: "open sesame",
      workspaceId: team.id,
    });
    const { code } = (await resp.json()) as { code: string };
    expect(await (await call("GET", `/${code}/stats`, api.tokens[1])).json()).toMatchObject({
      originalUrl: "https://example.com/team-secret",
    });
    await expectErrorResponse(await call("GET", `/${code}/stats`), 403, { code: "permission_denied", message: "password required" });
  });

  it("stores only a salted scrypt hash, lists hasPassword, and removes the password with null", async () => {
    const code = await shortenProtected("https://example.com/hash-only");
    const row = await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM urls WHERE code = ${code}`;
    expect(row!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(row!.password_hash).not.toContain("open sesame");
    const list = (await (await call("GET", "/urls", api.tokens[0])).json()) as { urls: { code: string; hasPassword: boolean }[] };
    expect(list.urls.find((l) => l.code === code)).toMatchObject({ hasPassword: true });
    expect(JSON.stringify(list)).not.toContain("scrypt");

    const removed = await call("PATCH", `/urls/${code}`, api.tokens[0], { password: null });
    expect(await removed.json()).toMatchObject({ hasPassword: false });
    expect(await (await call("GET", `/${code}`)).json()).toEqual({ url: "https://example.com/hash-only" });
    const set = await call("PATCH", `/urls/${code}`, api.tokens[0], { password: "a new password" });
    expect(await set.json()).toMatchObject({ hasPassword: true });
    expect((await call("GET", `/${code}`)).status).toBe(403);
  });

  it("refuses passwords shorter than 8 or longer than 128 characters, naming the field", async () => {
    const short = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/p", password: "short" });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { message: string }).message).toMatch(/password/);
    // 129 two-byte characters pass the type's byte bound (512) and are still too many characters.
    const long = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/p", password: "é".repeat(129) });
    await expectErrorResponse(long, 400, { code: "invalid_argument", message: "password must be 8 to 128 characters" });
  });

  it("limits unlock attempts per address and link, right or wrong", async () => {
    const code = await shortenProtected("https://example.com/limited-guesses");
    const other = await shortenProtected("https://example.com/other-guesses");
    const attempt = (c: string, from: string, password: string) =>
      call("POST", `/${c}/unlock`, undefined, { password }, { "X-Forwarded-For": from }).then((r) => r.status);
    const seen = await inOneWindow(WINDOW_S, async () => ({
      guesses: [await attempt(code, "198.51.100.7", "guess one"), await attempt(code, "198.51.100.7", "guess two")],
      right: await attempt(code, "198.51.100.7", "open sesame"),
      fourth: await attempt(code, "198.51.100.7", "open sesame"),
      otherLink: await attempt(other, "198.51.100.7", "open sesame"),
      otherAddress: await attempt(code, "198.51.100.8", "open sesame"),
    }));
    expect(seen).toEqual({ guesses: [403, 403], right: 200, fourth: 429, otherLink: 200, otherAddress: 200 });
  });
});
