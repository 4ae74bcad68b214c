// Workspaces over HTTP: every role against every action (one table), invitations, the last owner,
// and links of other workspaces answering not_found.
import { beforeAll, describe, expect, it } from "vitest";
import { describeLocal, expectErrorResponse, useTestServer, type Reply } from "../local/testing";
import { workspaceApi, type Person } from "./__tests__/workspace-api";
import type { Role } from "./roles";

describeLocal("workspaces over HTTP", () => {
  const { call, ok, person, join } = workspaceApi(useTestServer());

  it("gives every account a personal workspace, and a new shared one to its creator as owner", async () => {
    const me = await person();
    expect(await ok("GET", "/workspaces", me.token)).toEqual({
      workspaces: [{ id: expect.stringMatching(/^[1-9][0-9]*$/), name: "Personal", role: "owner", personal: true }],
    });
    const team = await ok("POST", "/workspaces", me.token, { name: "  Growth team " });
    expect(team).toEqual({ id: expect.any(String), name: "Growth team", role: "owner", personal: false });
    expect((await ok("GET", "/workspaces", me.token)).workspaces.map((w: { name: string }) => w.name)).toEqual(["Personal", "Growth team"]);
    await expectErrorResponse(await call("POST", "/workspaces", me.token, { name: "   " }), 400, {
      code: "invalid_argument",
      message: "name must be 1 to 100 characters",
    });
  });

  describe("each role against each action", () => {
    let workspaceId: string;
    const people = {} as Record<Role | "outsider", Person>;
    let ownerLink: string;

    beforeAll(async () => {
      people.owner = await person();
      workspaceId = (await ok("POST", "/workspaces", people.owner.token, { name: "Roles" })).id;
      people.admin = await join(workspaceId, people.owner, "admin");
      people.member = await join(workspaceId, people.owner, "member");
      people.viewer = await join(workspaceId, people.owner, "viewer");
      people.outsider = await person();
      ownerLink = (await ok("POST", "/shorten", people.owner.token, { url: "https://example.com/owned", workspaceId })).code;
    });

    // Each action runs once per role against fresh objects, so one role's change cannot hide another's refusal.
    const actions: Record<string, (who: Person) => Promise<Reply>> = {
      "list links": (who) => call("GET", `/urls?workspaceId=${workspaceId}`, who.token),
      "shorten into it": (who) => call("POST", "/shorten", who.token, { url: "https://example.com/new", workspaceId }),
      "change another's link": async (who) => call("PATCH", `/urls/${await freshLink()}`, who.token, { url: "https://example.com/moved" }),
      "delete another's link": async (who) => call("DELETE", `/urls/${await freshLink()}`, who.token),
      "read a link's clicks": (who) => call("GET", `/urls/${ownerLink}/clicks`, who.token),
      "read the workspace's clicks": (who) => call("GET", `/analytics/clicks?workspaceId=${workspaceId}`, who.token),
      "list members": (who) => call("GET", `/workspaces/${workspaceId}/members`, who.token),
      invite: (who) => call("POST", `/workspaces/${workspaceId}/invites`, who.token, { role: "viewer" }),
      "remove a viewer": async (who) =>
        call("DELETE", `/workspaces/${workspaceId}/members/${(await join(workspaceId, people.owner, "viewer")).id}`, who.token),
      "change a role": async (who) => {
        const target = await join(workspaceId, people.owner, "viewer");
        return call("PATCH", `/workspaces/${workspaceId}/members/${target.id}`, who.token, { role: "member" });
      },
    };
    const freshLink = async () => (await ok("POST", "/shorten", people.owner.token, { url: "https://example.com/x", workspaceId })).code;

    // 200 allowed, 403 permission_denied, 404 not_found (the outsider must not learn the workspace exists).
    const expected: Record<string, Record<Role | "outsider", 200 | 403 | 404>> = {
      "list links": { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404 },
      "shorten into it": { owner: 200, admin: 200, member: 200, viewer: 403, outsider: 404 },
      "change another's link": { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404 },
      "delete another's link": { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404 },
      "read a link's clicks": { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404 },
      "read the workspace's clicks": { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404 },
      "list members": { owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404 },
      invite: { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404 },
      "remove a viewer": { owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404 },
      "change a role": { owner: 200, admin: 403, member: 403, viewer: 403, outsider: 404 },
    };
    const cases = Object.entries(expected).flatMap(([action, byRole]) =>
      Object.entries(byRole).map(([role, status]) => [action, role as Role | "outsider", status] as const),
    );

    it.each(cases)("%s as %s answers %i", async (action, role, status) => {
      const reply = await actions[action](people[role]);
      expect(reply.status, JSON.stringify(reply.body)).toBe(status);
      if (status === 403) expect(reply.body).toMatchObject({ code: "permission_denied" });
      if (status === 404) expect(reply.body).toMatchObject({ code: "not_found" });
    });

    it("lets a member change and delete its own links, and lists each link's workspace and creator", async () => {
      const { member } = people;
      const { code } = await ok("POST", "/shorten", member.token, { url: "https://example.com/mine", workspaceId });
      expect(await ok("PATCH", `/urls/${code}`, member.token, { url: "https://example.com/still-mine" })).toMatchObject({
        code,
        workspaceId,
        creator: { type: "user", id: member.id, label: expect.stringMatching(/@example\.com$/) },
        originalUrl: "https://example.com/still-mine",
      });
      const listed = (await ok("GET", `/urls?workspaceId=${workspaceId}`, people.viewer.token)).urls;
      expect(listed.find((l: { code: string }) => l.code === code).creator.id).toBe(member.id);
      await ok("DELETE", `/urls/${code}`, member.token);
    });
  });

  it("answers not_found for a link or workspace outside the caller's, and for IDs no workspace has", async () => {
    const [alice, bob] = [await person(), await person()];
    const { code } = await ok("POST", "/shorten", alice.token, { url: "https://example.com/alice" });
    const alicePersonal = (await ok("GET", "/workspaces", alice.token)).workspaces[0].id;
    for (const [method, path] of [
      ["PATCH", `/urls/${code}`],
      ["DELETE", `/urls/${code}`],
      ["GET", `/urls/${code}/clicks`],
      ["GET", `/urls/${code}/clicks/export`],
    ]) {
      await expectErrorResponse(
        await call(method, path, bob.token, method === "PATCH" ? { url: "https://example.com/b" } : undefined),
        404,
        {
          code: "not_found",
          message: "URL not found",
        },
      );
    }
    for (const id of [alicePersonal, "0", "abc", "99999999999999999999"]) {
      await expectErrorResponse(await call("GET", `/urls?workspaceId=${id}`, bob.token), 404, {
        code: "not_found",
        message: "workspace not found",
      });
    }
    await expectErrorResponse(
      await call("POST", "/shorten", bob.token, { url: "https://example.com/b", workspaceId: alicePersonal }),
      404,
      {
        code: "not_found",
        message: "workspace not found",
      },
    );
  });

  it("takes an invitation once, refuses an unknown one, and invites nobody into a personal workspace", async () => {
    const owner = await person();
    const workspaceId = (await ok("POST", "/workspaces", owner.token, { name: "Once" })).id;
    const invite = await ok("POST", `/workspaces/${workspaceId}/invites`, owner.token, { role: "member" });
    expect(invite).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), role: "member", expiresAt: expect.any(String) });
    expect(Date.parse(invite.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    const [first, second] = [await person(), await person()];
    expect(await ok("POST", `/invites/${invite.token}/accept`, first.token)).toEqual({ workspaceId, name: "Once", role: "member" });
    const gone = { code: "not_found" as const, message: "invitation not found, already used or expired" };
    await expectErrorResponse(await call("POST", `/invites/${invite.token}/accept`, second.token), 404, gone);
    await expectErrorResponse(await call("POST", `/invites/${"x".repeat(43)}/accept`, second.token), 404, gone);
    await expectErrorResponse(await call("POST", `/workspaces/${workspaceId}/invites`, owner.token, { role: "owner" }), 400, {
      code: "invalid_argument",
      message:
        'unable to decode request body: role: invalid type: string "owner", expected "admin", "member", or "viewer" at line 1 column 15',
    });
    const personal = (await ok("GET", "/workspaces", owner.token)).workspaces[0].id;
    await expectErrorResponse(await call("POST", `/workspaces/${personal}/invites`, owner.token, { role: "member" }), 400, {
      code: "failed_precondition",
      message: "a personal workspace has only its owner: create a shared workspace to invite others",
    });
    const members = (await ok("GET", `/workspaces/${workspaceId}/members`, first.token)).members;
    expect(members.map((m: { userId: string; role: string }) => [m.userId, m.role])).toEqual([
      [owner.id, "owner"],
      [first.id, "member"],
    ]);
  });

  it("keeps the last owner: it can neither leave nor be demoted, until another owner exists", async () => {
    const owner = await person();
    const workspaceId = (await ok("POST", "/workspaces", owner.token, { name: "Owned" })).id;
    const lastOwner = (change: string) => ({
      code: "failed_precondition" as const,
      message: `cannot ${change} the last owner: make another member an owner first`,
    });
    await expectErrorResponse(
      await call("DELETE", `/workspaces/${workspaceId}/members/${owner.id}`, owner.token),
      400,
      lastOwner("remove"),
    );
    await expectErrorResponse(
      await call("PATCH", `/workspaces/${workspaceId}/members/${owner.id}`, owner.token, { role: "admin" }),
      400,
      lastOwner("demote"),
    );
    const second = await join(workspaceId, owner, "admin");
    await ok("PATCH", `/workspaces/${workspaceId}/members/${second.id}`, owner.token, { role: "owner" });
    await ok("DELETE", `/workspaces/${workspaceId}/members/${owner.id}`, owner.token);
    await expectErrorResponse(await call("GET", `/urls?workspaceId=${workspaceId}`, owner.token), 404, {
      code: "not_found",
      message: "workspace not found",
    });
    await expectErrorResponse(
      await call("DELETE", `/workspaces/${workspaceId}/members/${second.id}`, second.token),
      400,
      lastOwner("remove"),
    );
  });
});
