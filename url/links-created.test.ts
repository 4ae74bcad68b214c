// GET /analytics/links-created: a workspace's new links per UTC day, deleted ones included, for its
// members only; another workspace answers not_found, a key without analytics:read permission_denied.
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import { db } from "./db";
import type { LinksCreated } from "./links-created-types";
import { serveApiForThisFile } from "./__tests__/helpers";

describeLocal("GET /analytics/links-created over HTTP", () => {
  const api = serveApiForThisFile(2);
  const [owner, stranger] = [0, 1];
  const today = () => new Date().toISOString().slice(0, 10);

  async function ok<T>(method: string, path: string, user: number | string, body?: unknown): Promise<T> {
    const resp = await api.call(method, path, typeof user === "number" ? api.tokens[user] : user, body);
    expect(resp.status, await resp.clone().text()).toBe(200);
    return (await resp.json()) as T;
  }

  it("counts each day's new links in the chosen workspace, deleted ones too, and nothing of other workspaces", async () => {
    const team = await ok<{ id: string }>("POST", "/workspaces", owner, { name: "Counted" });
    for (let i = 0; i < 3; i++) await ok("POST", "/shorten", owner, { url: `https://example.com/team/${i}`, workspaceId: team.id });
    const gone = await ok<{ code: string }>("POST", "/shorten", owner, { url: "https://example.com/gone", workspaceId: team.id });
    expect((await api.call("DELETE", `/urls/${gone.code}`, api.tokens[owner])).ok).toBe(true);
    await ok("POST", "/shorten", owner, { url: "https://example.com/personal" });
    // Two days back, as a link made then would have logged it (the log takes new rows, never changes).
    await db.exec`
      INSERT INTO audit_log (workspace_id, at, actor_type, actor_id, actor_label, action, target_type, target_id)
      VALUES (${team.id}::text::bigint, now() - interval '2 days', 'user', '0', 'test', 'link.created', 'link', 'older1')`;

    const week = await ok<LinksCreated>("GET", `/analytics/links-created?days=7&workspaceId=${team.id}`, owner);
    expect(week.days).toHaveLength(7);
    expect(week.to).toBe(today());
    expect(week.days.at(-1)).toEqual({ date: today(), created: 4 });
    expect(week.days.at(-3)!.created).toBe(1);
    expect(week.total).toBe(5);
    const personal = await ok<LinksCreated>("GET", "/analytics/links-created?days=1", owner);
    expect(personal.days).toEqual([{ date: today(), created: 1 }]);

    const ranged = await ok<LinksCreated>("GET", `/analytics/links-created?from=2026-02-27&to=2026-03-01&workspaceId=${team.id}`, owner);
    expect(ranged.days).toEqual([
      { date: "2026-02-27", created: 0 },
      { date: "2026-02-28", created: 0 },
      { date: "2026-03-01", created: 0 },
    ]);
  });

  it("answers another workspace not_found, a key without analytics:read permission_denied, and no token 401", async () => {
    const team = await ok<{ id: string }>("POST", "/workspaces", owner, { name: "Private" });
    await expectErrorResponse(await api.call("GET", `/analytics/links-created?workspaceId=${team.id}`, api.tokens[stranger]), 404, {
      code: "not_found",
      message: "workspace not found",
    });
    const reader = await ok<{ key: string }>("POST", `/workspaces/${team.id}/keys`, owner, { name: "reader", scopes: ["analytics:read"] });
    expect((await ok<LinksCreated>("GET", "/analytics/links-created?days=2", reader.key)).days).toHaveLength(2);
    const writer = await ok<{ key: string }>("POST", `/workspaces/${team.id}/keys`, owner, { name: "writer", scopes: ["links:write"] });
    await expectErrorResponse(await api.call("GET", "/analytics/links-created", writer.key), 403, {
      code: "permission_denied",
      message: "this API key lacks the analytics:read scope",
    });
    await expectErrorResponse(await api.call("GET", "/analytics/links-created?days=0", api.tokens[owner]), 400, {
      code: "invalid_argument",
      message: "unable to decode query string: days: value must be at least 1 (got 0)",
    });
    expect((await api.call("GET", "/analytics/links-created")).status).toBe(401);
  });
});
