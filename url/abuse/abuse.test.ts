// Abuse handling over HTTP: site admins, the blocklist, reports, disabling, banning and flagging.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeLocal, useTestServer } from "../../local/testing";

describeLocal("abuse handling over HTTP", () => {
  const app = useTestServer();
  const admin = { email: `admin-${randomUUID()}@example.com`, token: "", id: "" };
  const owner = { email: `owner-${randomUUID()}@example.com`, token: "", id: "" };
  const password = "correct horse battery";

  async function signUp(account: { email: string; token: string; id: string }) {
    const { body } = await app.call("POST", "/auth/signup", { body: { email: account.email, password } });
    account.token = body.token;
    account.id = (await app.call("GET", "/auth/me", { token: body.token })).body.id;
  }

  async function shorten(url: string): Promise<string> {
    const answer = await app.call("POST", "/shorten", { token: owner.token, body: { url } });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.code;
  }

  beforeAll(async () => {
    process.env.ADMIN_EMAILS = ` someone@example.com, ${admin.email.toUpperCase()} `;
    await signUp(admin);
    await signUp(owner);
  });

  afterAll(() => {
    delete process.env.ADMIN_EMAILS;
  });

  it("answers permission_denied on every admin endpoint to anyone not in ADMIN_EMAILS", async () => {
    for (const [method, path, body] of [
      ["GET", "/admin/blocklist", undefined],
      ["POST", "/admin/blocklist", { host: "evil.example" }],
      ["DELETE", "/admin/blocklist/evil.example", undefined],
      ["GET", "/admin/reports?status=open", undefined],
      ["PATCH", "/admin/reports/1", { status: "resolved" }],
      ["PATCH", "/admin/urls/abcdef", { disabled: true, reason: "x" }],
      ["PATCH", `/admin/users/${admin.id}`, { banned: true }],
    ] as const) {
      const answer = await app.call(method, path, { token: owner.token, body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toMatchObject({ code: "permission_denied", message: "only site admins may do this" });
    }
  });

  it("blocks a host and its subdomains on shorten and PATCH, and disables the existing links to it", async () => {
    const before = await shorten("https://phish.blocked-host.example/login");
    const other = await shorten("https://notblocked-host.example/");
    const added = await app.call("POST", "/admin/blocklist", { token: admin.token, body: { host: "Blocked-Host.example" } });
    expect(added.body).toMatchObject({ host: "blocked-host.example", source: "admin", linksDisabled: 1 });

    for (const url of ["https://blocked-host.example/", "http://a.b.blocked-host.example/x"]) {
      const refused = await app.call("POST", "/shorten", { token: owner.token, body: { url } });
      expect(refused.body).toMatchObject({ code: "invalid_argument", message: "this destination is not allowed" });
    }
    const patched = await app.call("PATCH", `/urls/${other}`, { token: owner.token, body: { url: "https://x.blocked-host.example/" } });
    expect(patched.body).toMatchObject({ code: "invalid_argument", message: "this destination is not allowed" });
    const imported = await fetch(`${app.baseUrl}/urls/import`, {
      method: "POST",
      headers: { "Content-Type": "text/csv", Authorization: `Bearer ${owner.token}` },
      body: "url\nhttps://deep.blocked-host.example/x\n",
    });
    expect(await imported.text()).toBe('{"row":2,"error":{"code":"invalid_argument","message":"this destination is not allowed"}}\n');

    const api = await app.call("GET", `/${before}`);
    expect(api.status).toBe(403);
    expect(api.body).toMatchObject({ code: "permission_denied", message: "this link has been disabled" });
    expect((await app.call("GET", `/${other}`)).status).toBe(200);
    const { body: list } = await app.call("GET", "/admin/blocklist", { token: admin.token });
    expect(list.hosts).toContainEqual(expect.objectContaining({ host: "blocked-host.example", source: "admin" }));
    expect((await app.call("DELETE", "/admin/blocklist/blocked-host.example", { token: admin.token })).status).toBe(200);
    expect((await app.call("POST", "/shorten", { token: owner.token, body: { url: "https://blocked-host.example/" } })).status).toBe(200);
  });

  it("takes an anonymous report, lists it to admins by status, and closes it", async () => {
    const code = await shorten("https://reported.example/");
    const sent = await app.call("POST", `/${code}/report`, { body: { reason: "phishing", details: "asks for my bank password" } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ id: expect.any(Number) });
    expect((await app.call("POST", "/nosuch1/report", { body: { reason: "spam" } })).status).toBe(404);
    expect((await app.call("POST", `/${code}/report`, { body: { reason: "boring" } })).status).toBe(400);

    const { body: open } = await app.call("GET", "/admin/reports?status=open", { token: admin.token });
    const report = open.reports.find((r: { id: number }) => r.id === sent.body.id);
    expect(report).toMatchObject({
      code,
      reason: "phishing",
      details: "asks for my bank password",
      status: "open",
      link: { originalUrl: "https://reported.example/", creator: owner.id, disabled: false, flagged: false },
    });
    const closed = await app.call("PATCH", `/admin/reports/${sent.body.id}`, { token: admin.token, body: { status: "resolved" } });
    expect(closed.body).toMatchObject({ id: sent.body.id, status: "resolved" });
    const { body: stillOpen } = await app.call("GET", "/admin/reports?status=open", { token: admin.token });
    expect(stillOpen.reports.some((r: { id: number }) => r.id === sent.body.id)).toBe(false);
    expect((await app.call("PATCH", "/admin/reports/999999999", { token: admin.token, body: { status: "resolved" } })).status).toBe(404);
  });

  it("disables a link: a page without the target for browsers, 403 for API clients, no clicks, and its owner cannot undo it", async () => {
    const code = await shorten("https://secret-target.example/path");
    const reason = "phishing page reported twice";
    const disabled = await app.call("PATCH", `/admin/urls/${code}`, { token: admin.token, body: { disabled: true, reason } });
    expect(disabled.body).toMatchObject({ code, disabled: true, disabledReason: reason, creator: owner.id });
    expect((await app.call("PATCH", `/admin/urls/${code}`, { token: admin.token, body: { disabled: true } })).status).toBe(400);

    const page = await app.call("GET", `/${code}`, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(403);
    expect(page.text).toContain("This link has been disabled");
    expect(page.text).toContain(`href="/${code}/report"`);
    expect(page.text).not.toContain("secret-target");
    expect((await app.call("HEAD", `/${code}`)).status).toBe(403);
    expect((await app.call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 0 });

    const { body: mine } = await app.call("GET", "/urls", { token: owner.token });
    expect(mine.urls.find((u: { code: string }) => u.code === code)).toMatchObject({
      disabled: true,
      disabledReason: reason,
      flagged: false,
    });
    const change = await app.call("PATCH", `/urls/${code}`, { token: owner.token, body: { url: "https://elsewhere.example/" } });
    expect(change.body).toMatchObject({ code: "permission_denied", message: "this link has been disabled" });

    const enabled = await app.call("PATCH", `/admin/urls/${code}`, { token: admin.token, body: { disabled: false } });
    expect(enabled.body).toMatchObject({ disabled: false, disabledReason: null });
    expect((await app.call("GET", `/${code}`)).body).toEqual({ url: "https://secret-target.example/path" });
  });

  it("shows browsers a warning before a flagged link, and counts the click only when they continue", async () => {
    const code = await shorten("https://flagged-target.example/offer?x=1");
    await app.call("PATCH", `/admin/urls/${code}`, { token: admin.token, body: { flagged: true } });

    const warning = await app.call("GET", `/${code}?utm_source=mail`, { headers: { Accept: "text/html" } });
    expect(warning.status).toBe(200);
    expect(warning.text).toContain("You are leaving for flagged-target.example");
    expect(warning.text).toContain(`href="/${code}?utm_source=mail&#38;continue=1"`);
    expect((await app.call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 0 });

    const went = await app.call("GET", `/${code}?utm_source=mail&continue=1`, { headers: { Accept: "text/html" } });
    expect(went.status).toBe(302);
    expect(went.headers.get("location")).toBe("https://flagged-target.example/offer?x=1");
    expect((await app.call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 1 });
    // An API client gets no page to read, so it is answered and counted as before.
    expect((await app.call("GET", `/${code}`)).body).toEqual({ url: "https://flagged-target.example/offer?x=1" });
    expect((await app.call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 2 });
  });

  it("serves the report form to browsers", async () => {
    const code = await shorten("https://form.example/");
    const form = await app.call("GET", `/${code}/report`, { headers: { Accept: "text/html" } });
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form id="report"');
    expect(form.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[^']+' 'sha256-[^']+'/);
  });

  it("records every admin action on a link in its workspace's audit log, with the admin as actor", async () => {
    const user = { email: `audited-${randomUUID()}@example.com`, token: "", id: "" };
    await signUp(user);
    const shortenAs = async (url: string) => (await app.call("POST", "/shorten", { token: user.token, body: { url } })).body.code;
    const [disabled, flagged, blocked, banned] = await Promise.all(
      ["https://audited.example/a", "https://audited.example/b", "https://audited-blocked.example/", "https://audited.example/c"].map(
        shortenAs,
      ),
    );
    await app.call("PATCH", `/admin/urls/${disabled}`, { token: admin.token, body: { disabled: true, reason: "phishing" } });
    await app.call("PATCH", `/admin/urls/${flagged}`, { token: admin.token, body: { flagged: true } });
    await app.call("POST", "/admin/blocklist", { token: admin.token, body: { host: "audited-blocked.example" } });
    await app.call("PATCH", `/admin/users/${user.id}`, { token: admin.token, body: { banned: true } });
    await app.call("PATCH", `/admin/users/${user.id}`, { token: admin.token, body: { banned: false } });
    const login = await app.call("POST", "/auth/login", { body: { email: user.email, password } });
    const { body: spaces } = await app.call("GET", "/workspaces", { token: login.body.token });
    const personal = spaces.workspaces.find((w: { personal: boolean }) => w.personal).id;
    const { body: log } = await app.call("GET", `/workspaces/${personal}/audit`, { token: login.body.token });
    const moderated = log.entries
      .filter((e: { action: string }) => e.action === "link.moderated")
      .map((e: { actor: { label: string }; target: { id: string }; details: Record<string, unknown> }) => ({
        admin: e.actor.label,
        code: e.target.id,
        after: e.details.after,
        reason: e.details.reason,
      }));
    const by = admin.email;
    const banReason = "its owner's account was banned";
    // The ban disables every link still enabled, the flagged one too, in one statement.
    expect(moderated).toHaveLength(5);
    expect(moderated).toEqual(
      expect.arrayContaining([
        { admin: by, code: disabled, after: { disabled: true, flagged: false }, reason: "phishing" },
        { admin: by, code: flagged, after: { disabled: false, flagged: true }, reason: null },
        { admin: by, code: blocked, after: { disabled: true, flagged: false }, reason: "its destination is on the blocklist" },
        { admin: by, code: flagged, after: { disabled: true, flagged: true }, reason: banReason },
        { admin: by, code: banned, after: { disabled: true, flagged: false }, reason: banReason },
      ]),
    );
    expect((await app.call("DELETE", "/admin/blocklist/audited-blocked.example", { token: admin.token })).status).toBe(200);
  });

  it("bans an account: sign-in refused, its token stops at once, its links disabled; lifting the ban lets it sign in again", async () => {
    const victim = { email: `banned-${randomUUID()}@example.com`, token: "", id: "" };
    await signUp(victim);
    const link = await app.call("POST", "/shorten", { token: victim.token, body: { url: "https://spammy.example/" } });
    const banned = await app.call("PATCH", `/admin/users/${victim.id}`, { token: admin.token, body: { banned: true } });
    expect(banned.body).toEqual({ id: victim.id, email: victim.email, banned: true, linksDisabled: 1 });

    expect((await app.call("GET", "/auth/me", { token: victim.token })).status).toBe(401);
    expect((await app.call("GET", "/urls", { token: victim.token })).status).toBe(401);
    const login = await app.call("POST", "/auth/login", { body: { email: victim.email, password } });
    expect(login.body).toMatchObject({ code: "permission_denied", message: "this account has been banned" });
    expect((await app.call("POST", "/auth/login", { body: { email: victim.email, password: "wrong password!!" } })).status).toBe(401);
    expect((await app.call("GET", `/${link.body.code}`)).body).toMatchObject({ message: "this link has been disabled" });

    await app.call("PATCH", `/admin/users/${victim.id}`, { token: admin.token, body: { banned: false } });
    expect((await app.call("POST", "/auth/login", { body: { email: victim.email, password } })).status).toBe(200);
    expect((await app.call("PATCH", `/admin/users/${admin.id}`, { token: admin.token, body: { banned: true } })).status).toBe(400);
    expect((await app.call("PATCH", "/admin/users/999999999999", { token: admin.token, body: { banned: true } })).status).toBe(404);
  });
});
