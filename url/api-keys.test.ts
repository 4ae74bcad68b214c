// API keys over HTTP: each scope against each endpoint (one table), revoked and expired keys, a key
// outside its workspace, keys unable to make keys, what the table keeps, and lastUsedAt's pace.
import { beforeAll, describe, expect, it } from "vitest";
import { describeLocal, expectErrorResponse, useTestServer, type Reply } from "../local/testing";
import { workspaceApi, type Person } from "./__tests__/workspace-api";
import { db } from "./db";
import type { KeyScope } from "./key-scopes";

describeLocal("API keys over HTTP", () => {
  const { call, ok, person } = workspaceApi(useTestServer());
  let owner: Person;
  let workspaceId: string;
  let otherWorkspaceLink: string;

  const makeKey = async (scopes: KeyScope[], extra: Record<string, unknown> = {}) =>
    ok("POST", `/workspaces/${workspaceId}/keys`, owner.token, { name: `key ${scopes.join(" ")}`, scopes, ...extra });
  const link = async () => (await ok("POST", "/shorten", owner.token, { url: "https://example.com/k", workspaceId })).code as string;

  beforeAll(async () => {
    owner = await person();
    workspaceId = (await ok("POST", "/workspaces", owner.token, { name: "Keys" })).id;
    // The owner's personal workspace is another workspace the key must not reach.
    otherWorkspaceLink = (await ok("POST", "/shorten", owner.token, { url: "https://example.com/personal" })).code;
  });

  it("makes a key shown once, lists it without the key, and records both changes in the audit log", async () => {
    const made = await makeKey(["links:read", "links:write"], { name: "CI deploys" });
    expect(made).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      name: "CI deploys",
      key: expect.stringMatching(/^sk_[A-Za-z0-9_-]{43}$/),
      scopes: ["links:read", "links:write"],
      createdAt: expect.any(String),
      expiresAt: null,
    });
    const { keys } = await ok("GET", `/workspaces/${workspaceId}/keys`, owner.token);
    const listed = keys.find((k: { id: string }) => k.id === made.id);
    expect(listed).toEqual({
      id: made.id,
      name: "CI deploys",
      prefix: made.key.slice(0, 8),
      scopes: ["links:read", "links:write"],
      createdAt: made.createdAt,
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(keys)).not.toContain(made.key);
    await ok("DELETE", `/workspaces/${workspaceId}/keys/${made.id}`, owner.token);
    const { entries } = await ok("GET", `/workspaces/${workspaceId}/audit`, owner.token);
    const ours = entries.filter((e: { target: { id: string } }) => e.target.id === made.id);
    expect(ours.map((e: { action: string }) => e.action)).toEqual(["key.revoked", "key.created"]);
    expect(ours[0].actor).toEqual({ type: "user", id: owner.id, label: owner.email });
  });

  it("refuses bad scopes, a past expiry, and a key managing keys", async () => {
    for (const scopes of [[], ["links:admin"]]) {
      const reply = await call("POST", `/workspaces/${workspaceId}/keys`, owner.token, { name: "bad", scopes });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body).toMatchObject({ code: "invalid_argument" });
    }
    await expectErrorResponse(
      await call("POST", `/workspaces/${workspaceId}/keys`, owner.token, {
        name: "old",
        scopes: ["links:read"],
        expiresAt: "2020-01-01T00:00:00Z",
      }),
      400,
      { code: "invalid_argument", message: "expiresAt must be in the future" },
    );
    const { key } = await makeKey(["links:read", "links:write", "analytics:read"]);
    const denied = { code: "permission_denied", message: "an API key cannot do this: sign in with a password" } as const;
    await expectErrorResponse(
      await call("POST", `/workspaces/${workspaceId}/keys`, key, { name: "child", scopes: ["links:read"] }),
      403,
      denied,
    );
    await expectErrorResponse(await call("GET", `/workspaces/${workspaceId}/keys`, key), 403, denied);
    await expectErrorResponse(await call("POST", "/workspaces", key, { name: "by key" }), 403, denied);
  });

  describe("each scope against each endpoint", () => {
    const endpoints: Record<string, { needs: KeyScope; run: (key: string) => Promise<Reply> }> = {
      "POST /shorten": { needs: "links:write", run: (key) => call("POST", "/shorten", key, { url: "https://example.com/by-key" }) },
      "PATCH /urls/:code": {
        needs: "links:write",
        run: async (key) => call("PATCH", `/urls/${await link()}`, key, { url: "https://example.com/moved" }),
      },
      "DELETE /urls/:code": { needs: "links:write", run: async (key) => call("DELETE", `/urls/${await link()}`, key) },
      "GET /urls": { needs: "links:read", run: (key) => call("GET", "/urls", key) },
      "GET /tags": { needs: "links:read", run: (key) => call("GET", "/tags", key) },
      "GET /urls/export": { needs: "links:read", run: (key) => call("GET", "/urls/export", key) },
      "GET /urls/:code/clicks": { needs: "analytics:read", run: async (key) => call("GET", `/urls/${await link()}/clicks`, key) },
      "GET /urls/:code/clicks/export": {
        needs: "analytics:read",
        run: async (key) => call("GET", `/urls/${await link()}/clicks/export`, key),
      },
      "GET /analytics/clicks": { needs: "analytics:read", run: (key) => call("GET", "/analytics/clicks", key) },
    };
    const scopes: KeyScope[] = ["links:read", "links:write", "analytics:read"];
    const keys = {} as Record<KeyScope, string>;
    beforeAll(async () => {
      for (const scope of scopes) keys[scope] = (await makeKey([scope])).key;
    });
    const cases = Object.entries(endpoints).flatMap(([endpoint, { needs }]) =>
      scopes.map((scope) => [endpoint, scope, scope === needs ? 200 : 403] as const),
    );

    it.each(cases)("%s with %s answers %i", async (endpoint, scope, status) => {
      const reply = await endpoints[endpoint].run(keys[scope]);
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      if (status === 403) {
        expect(reply.body).toMatchObject({
          code: "permission_denied",
          message: `this API key lacks the ${endpoints[endpoint].needs} scope`,
        });
      }
    });

    it("acts in its workspace as the key: links land there, the audit log names the key", async () => {
      const made = await makeKey(["links:write"], { name: "Importer" });
      const { code } = await ok("POST", "/shorten", made.key, { url: "https://example.com/keyed" });
      const { urls } = await ok("GET", `/urls?workspaceId=${workspaceId}`, owner.token);
      expect(urls.find((u: { code: string }) => u.code === code)).toMatchObject({ workspaceId, creator: { type: "user", id: owner.id } });
      const { entries } = await ok("GET", `/workspaces/${workspaceId}/audit`, owner.token);
      const created = entries.find((e: { action: string; target: { id: string } }) => e.action === "link.created" && e.target.id === code);
      expect(created.actor).toEqual({ type: "key", id: made.id, label: "Importer" });
    });
  });

  it("answers not_found for another workspace's link or workspace", async () => {
    const { key } = await makeKey(["links:read", "links:write", "analytics:read"]);
    const missing = { code: "not_found", message: "URL not found" } as const;
    await expectErrorResponse(await call("GET", `/urls/${otherWorkspaceLink}/clicks`, key), 404, missing);
    await expectErrorResponse(await call("PATCH", `/urls/${otherWorkspaceLink}`, key, { url: "https://example.com/x" }), 404, missing);
    await expectErrorResponse(await call("DELETE", `/urls/${otherWorkspaceLink}`, key), 404, missing);
    const personal = (await ok("GET", "/workspaces", owner.token)).workspaces[0].id;
    const noWorkspace = { code: "not_found", message: "workspace not found" } as const;
    await expectErrorResponse(await call("GET", `/urls?workspaceId=${personal}`, key), 404, noWorkspace);
    await expectErrorResponse(
      await call("POST", "/shorten", key, { url: "https://example.com/x", workspaceId: personal }),
      404,
      noWorkspace,
    );
  });

  it("refuses a revoked key and an expired key with 401", async () => {
    const revoked = await makeKey(["links:read"]);
    expect((await call("GET", "/urls", revoked.key)).status).toBe(200);
    await ok("DELETE", `/workspaces/${workspaceId}/keys/${revoked.id}`, owner.token);
    const refused = { code: "unauthenticated", message: "invalid API key" } as const;
    await expectErrorResponse(await call("GET", "/urls", revoked.key), 401, refused);
    await expectErrorResponse(await call("DELETE", `/workspaces/${workspaceId}/keys/${revoked.id}`, owner.token), 404, {
      code: "not_found",
      message: "API key not found or already revoked",
    });

    const expiring = await makeKey(["links:read"], { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await call("GET", "/urls", expiring.key)).status).toBe(200);
    await db.exec`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}::text::bigint`;
    await expectErrorResponse(await call("GET", "/urls", expiring.key), 401, refused);
    await expectErrorResponse(await call("GET", "/urls", "sk_" + "A".repeat(43)), 401, refused);
  });

  it("refuses a site admin's key on admin endpoints, and a banned creator's key with 401", async () => {
    const admin = await person();
    const creator = await person();
    process.env.ADMIN_EMAILS = admin.email;
    try {
      const keyOf = async (who: Person) => {
        const personal = (await ok("GET", "/workspaces", who.token)).workspaces[0].id;
        return (await ok("POST", `/workspaces/${personal}/keys`, who.token, { name: "mine", scopes: ["links:read"] })).key as string;
      };
      const adminKey = await keyOf(admin);
      await expectErrorResponse(await call("GET", "/admin/blocklist", adminKey), 403, {
        code: "permission_denied",
        message: "an API key cannot do this: sign in with a password",
      });
      const creatorKey = await keyOf(creator);
      expect((await call("GET", "/urls", creatorKey)).status).toBe(200);
      await ok("PATCH", `/admin/users/${creator.id}`, admin.token, { banned: true });
      await expectErrorResponse(await call("GET", "/urls", creatorKey), 401, { code: "unauthenticated", message: "invalid API key" });
    } finally {
      delete process.env.ADMIN_EMAILS;
    }
  });

  it("keeps no key in recoverable form: neither the key nor its random body appears in the table", async () => {
    const { id, key } = await makeKey(["links:read"]);
    const body = key.slice(3);
    const rows = await db.queryAll<Record<string, unknown>>`SELECT * FROM api_keys`;
    const dump = JSON.stringify(rows, (_, v) => (v && v.type === "Buffer" ? Buffer.from(v.data).toString("latin1") : v));
    for (const secret of [key, body, Buffer.from(body, "base64url").toString("hex"), Buffer.from(body, "base64url").toString("latin1")]) {
      expect(dump).not.toContain(secret);
    }
    const row = await db.queryRow<{
      prefix: string;
      hex: string;
    }>`SELECT prefix, encode(key_hash, 'hex') AS hex FROM api_keys WHERE id = ${id}::text::bigint`;
    expect(row!.prefix).toBe(key.slice(0, 8));
    expect(row!.hex).toMatch(/^[0-9a-f]{64}$/);
  });

  it("writes lastUsedAt once a minute at most, in the table", async () => {
    const { id, key } = await makeKey(["links:read"]);
    const lastUsed = async () =>
      (await db.queryRow<{ at: string | null }>`SELECT last_used_at::text AS at FROM api_keys WHERE id = ${id}::text::bigint`)!.at;
    expect(await lastUsed()).toBeNull();
    await ok("GET", "/urls", key);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    for (let i = 0; i < 3; i++) await ok("GET", "/urls", key);
    expect(await lastUsed()).toBe(first);
    // A minute later (moved back in the table instead of waiting), the next use writes it again.
    await db.exec`UPDATE api_keys SET last_used_at = last_used_at - interval '61 seconds' WHERE id = ${id}::text::bigint`;
    const aged = await lastUsed();
    await ok("GET", "/urls", key);
    expect(await lastUsed()).not.toBe(aged);
    const { keys } = await ok("GET", `/workspaces/${workspaceId}/keys`, owner.token);
    expect(keys.find((k: { id: string }) => k.id === id).lastUsedAt).not.toBeNull();
  });
});
