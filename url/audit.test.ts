// The audit log over HTTP: an entry per change in the change's own transaction, nothing for a refused
// one, exact under 200 concurrent changes by several members, readable by owners and admins only.
import { beforeAll, describe, expect, it } from "vitest";
import { describeLocal, expectErrorResponse, useTestServer } from "../local/testing";
import { workspaceApi, type Person } from "./__tests__/workspace-api";
import { db } from "./db";
import type { AuditEntry } from "./audit";

describeLocal("the audit log over HTTP", () => {
  const { call, ok, person, join } = workspaceApi(useTestServer());
  /** allEntries reads every page of a workspace's log, newest first. */
  const allEntries = async (workspaceId: string, token: string, limit = 100) => {
    const entries: AuditEntry[] = [];
    let cursor: string | undefined;
    do {
      const query = `limit=${limit}` + (cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`);
      const page = await ok("GET", `/workspaces/${workspaceId}/audit?${query}`, token);
      entries.push(...page.entries);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return entries;
  };

  let owner: Person;
  let workspaceId: string;
  beforeAll(async () => {
    owner = await person();
    workspaceId = (await ok("POST", "/workspaces", owner.token, { name: "Audited" })).id;
  });

  it("records each change with its actor, target and details, newest first", async () => {
    const member = await join(workspaceId, owner, "member");
    const { code } = await ok("POST", "/shorten", member.token, { url: "https://example.com/a", workspaceId, tags: ["x"] });
    await ok("PATCH", `/urls/${code}`, owner.token, { url: "https://example.com/b", password: "a secret phrase" });
    await ok("PATCH", `/workspaces/${workspaceId}/members/${member.id}`, owner.token, { role: "viewer" });
    await ok("DELETE", `/urls/${code}`, owner.token);
    await ok("DELETE", `/workspaces/${workspaceId}/members/${member.id}`, member.token);

    const entries = await allEntries(workspaceId, owner.token);
    const asOwner = { type: "user", id: owner.id, label: owner.email };
    const asMember = { type: "user", id: member.id, label: member.email };
    expect(entries.map((e) => [e.action, e.actor, e.target, e.details])).toEqual([
      ["member.removed", asMember, { type: "member", id: member.id }, { role: "viewer", left: true }],
      ["link.deleted", asOwner, { type: "link", id: code }, { url: "https://example.com/b" }],
      ["member.role_changed", asOwner, { type: "member", id: member.id }, { before: "member", after: "viewer" }],
      [
        "link.updated",
        asOwner,
        { type: "link", id: code },
        { before: { url: "https://example.com/a", hasPassword: false }, after: { url: "https://example.com/b", hasPassword: true } },
      ],
      [
        "link.created",
        asMember,
        { type: "link", id: code },
        {
          url: "https://example.com/a",
          expiresAt: null,
          hasPassword: false,
          maxClicks: null,
          tags: ["x"],
          iosUrl: null,
          androidUrl: null,
        },
      ],
      ["member.joined", asMember, { type: "member", id: member.id }, { role: "member", invite: expect.stringMatching(/^\d+$/) }],
      [
        "member.invited",
        asOwner,
        { type: "invite", id: expect.stringMatching(/^\d+$/) },
        { role: "member", expiresAt: expect.any(String) },
      ],
      ["workspace.created", asOwner, { type: "workspace", id: workspaceId }, { name: "Audited", personal: false }],
    ]);
    for (const e of entries) expect(Object.keys(e).sort()).toEqual(["action", "actor", "at", "details", "id", "target"]);
    // Nothing in the log looks like a password or its hash.
    expect(JSON.stringify(entries)).not.toMatch(/secret phrase|scrypt|\$/);
  });

  it("pages with an opaque cursor, and only owners and admins may read it", async () => {
    const ws = (await ok("POST", "/workspaces", owner.token, { name: "Paged" })).id;
    for (let i = 0; i < 7; i++) await ok("POST", "/shorten", owner.token, { url: `https://example.com/p/${i}`, workspaceId: ws });
    const admin = await join(ws, owner, "admin");
    const everything = await allEntries(ws, admin.token, 100);
    expect(await allEntries(ws, owner.token, 3)).toEqual(everything);
    const ids = everything.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(everything).toHaveLength(1 + 7 + 2);

    const viewer = await join(ws, owner, "viewer");
    const member = await join(ws, owner, "member");
    for (const who of [viewer, member]) {
      await expectErrorResponse(await call("GET", `/workspaces/${ws}/audit`, who.token), 403, {
        code: "permission_denied",
        message: `a workspace ${who === viewer ? "viewer" : "member"} cannot do audit.read`,
      });
    }
    const outsider = await person();
    await expectErrorResponse(await call("GET", `/workspaces/${ws}/audit`, outsider.token), 404, {
      code: "not_found",
      message: "workspace not found",
    });
    await expectErrorResponse(await call("GET", `/workspaces/${ws}/audit?cursor=bm9wZQ`, owner.token), 400, {
      code: "invalid_argument",
      message: "invalid cursor",
    });
    expect((await call("GET", `/workspaces/${ws}/audit?limit=101`, owner.token)).status).toBe(400);
  });

  it("keeps entries from being changed or deleted, even by SQL", async () => {
    await expect(db.exec`UPDATE audit_log SET action = 'link.deleted' WHERE workspace_id = ${workspaceId}::text::bigint`).rejects.toThrow(
      /cannot be changed or deleted/,
    );
    await expect(db.exec`DELETE FROM audit_log WHERE workspace_id = ${workspaceId}::text::bigint`).rejects.toThrow(
      /cannot be changed or deleted/,
    );
  });

  describe("200 concurrent link changes by several members", () => {
    it("has exactly one entry per acknowledged change and none for a refused one", async () => {
      const boss = await person();
      const ws = (await ok("POST", "/workspaces", boss.token, { name: "Busy" })).id;
      const team = {
        admin: await join(ws, boss, "admin"),
        alice: await join(ws, boss, "member"),
        bob: await join(ws, boss, "member"),
        viewer: await join(ws, boss, "viewer"),
      };
      const links: Record<string, string[]> = {};
      for (const [name, who] of Object.entries({ boss, alice: team.alice, bob: team.bob })) {
        links[name] = [];
        for (let i = 0; i < 5; i++)
          links[name].push((await ok("POST", "/shorten", who.token, { url: `https://example.com/${name}/${i}`, workspaceId: ws })).code);
      }
      const before = (await allEntries(ws, boss.token)).length;

      // Everyone hits every link: members succeed on their own and are refused elsewhere, the viewer always,
      // the owner and admin always; a few deletes race with the updates of the same link.
      const actors = [boss, team.admin, team.alice, team.bob, team.viewer];
      const codes = Object.values(links).flat();
      const requests = Array.from({ length: 200 }, (_, i) => {
        const who = actors[i % actors.length];
        const code = codes[(i * 7) % codes.length];
        return i % 40 === 39
          ? { kind: "delete", code, call: () => call("DELETE", `/urls/${code}`, who.token) }
          : { kind: "update", code, call: () => call("PATCH", `/urls/${code}`, who.token, { url: `https://example.com/v/${i}` }) };
      });
      const replies = await Promise.all(requests.map((r) => r.call()));
      const statuses = replies.map((r) => r.status);
      expect(
        statuses.every((s) => [200, 403, 404].includes(s)),
        JSON.stringify(statuses),
      ).toBe(true);
      expect(statuses.filter((s) => s === 403).length).toBeGreaterThan(0);

      const entries = (await allEntries(ws, boss.token)).slice(0, -before);
      const acknowledged = (kind: string) => requests.filter((r, i) => r.kind === kind && statuses[i] === 200);
      const count = (action: string) => entries.filter((e) => e.action === action).length;
      expect(count("link.updated")).toBe(acknowledged("update").length);
      expect(count("link.deleted")).toBe(acknowledged("delete").length);
      expect(entries).toHaveLength(acknowledged("update").length + acknowledged("delete").length);
      // Each link's entries match its acknowledged changes one for one.
      for (const code of codes) {
        const ours = requests.filter((r, i) => r.code === code && statuses[i] === 200).length;
        expect(entries.filter((e) => e.target.id === code).length).toBe(ours);
      }
    });
  });
});
