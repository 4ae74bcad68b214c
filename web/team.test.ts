// The workspace switcher and the team page in Chromium: make a workspace, make an API key in the page,
// copy it, shorten with it through curl, revoke it in the page (curl then gets 401), and read all three
// in the audit log; invite a second person who accepts. Screenshots go to web/test-output/.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeLocal, useTestServer } from "../local/testing";
import { screenshot, signedInPage, useBrowser } from "./__tests__/browser";

const run = promisify(execFile);
const stamp = `${process.pid}-${Date.now()}`;
const ada = `ada-${stamp}@example.com`;

/** POST /shorten with an API key through curl, as a script would: the status and the body. */
async function curlShorten(baseUrl: string, key: string, url: string): Promise<{ status: number; body: string }> {
  const { stdout } = await run("curl", [
    "-s",
    "-w",
    "\n%{http_code}",
    "-X",
    "POST",
    `${baseUrl}/shorten`,
    "-H",
    `Authorization: Bearer ${key}`,
    "-H",
    "Content-Type: application/json",
    "-d",
    JSON.stringify({ url }),
  ]);
  const at = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
}

describeLocal("workspaces, API keys and the audit log in the web app (Chromium)", () => {
  const server = useTestServer();
  const web = useBrowser();
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage(web.browser, server.baseUrl, ada, { width: 1280 });
  });

  it("makes a key in the page that curl uses until it is revoked there, and the audit log shows all three", async () => {
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByRole("heading", { name: "Team: Personal" }).waitFor();
    await page.getByLabel("New workspace name").fill("Docs team");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Team: Docs team" }).waitFor();
    expect(await page.getByLabel("Workspace", { exact: true }).locator("option:checked").textContent()).toBe("Docs team (owner)");

    const keyForm = page.getByRole("form", { name: "New API key" });
    await keyForm.getByLabel("Key name").fill("Deploy script");
    for (const scope of ["links:read", "links:write"]) await keyForm.getByLabel(scope).uncheck();
    await keyForm.getByRole("button", { name: "Create key" }).click();
    await keyForm.getByRole("alert").getByText("Pick at least one scope.").waitFor();
    await keyForm.getByLabel("Expires (optional)").fill("2001-01-01T00:00");
    await keyForm.getByLabel("links:write").check();
    await keyForm.getByRole("button", { name: "Create key" }).click();
    await keyForm.locator("#field-key-expires-error").getByText("expiresAt must be in the future").waitFor();
    await keyForm.getByLabel("Expires (optional)").fill("");
    await keyForm.getByRole("button", { name: "Create key" }).click();
    const shown = (await page.getByTestId("new-key").textContent())!.trim();
    expect(shown).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    await page
      .getByRole("status")
      .filter({ has: page.getByTestId("new-key") })
      .getByRole("button", { name: "Copy" })
      .click();
    const key = (await page.evaluate("navigator.clipboard.readText()")) as string;
    expect(key).toBe(shown);
    const row = page.locator("table.keys tbody tr", { hasText: "Deploy script" });
    // The list reloads after the key is made: poll until its row is there.
    await expect
      .poll(() => row.locator("td").allTextContents())
      .toEqual(expect.arrayContaining([`${key.slice(0, 8)}…`, "links:write", "Never", "Never expires"]));

    const made = await curlShorten(server.baseUrl, key, "https://example.com/from-a-script");
    expect(made.status).toBe(200);
    const { code } = JSON.parse(made.body) as { code: string };

    await page.getByRole("link", { name: "My links" }).click();
    await page.getByRole("heading", { name: "Links of Docs team" }).waitFor();
    const link = page.locator("tr.link", { hasText: code });
    await link.waitFor();
    expect(await link.getByTestId("creator").textContent()).toBe(ada);
    expect(await page.locator("tr.link").count()).toBe(1);
    await screenshot(page, "team-links");

    await page.getByRole("link", { name: "Team" }).click();
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByText("Revoked").waitFor();
    expect(await row.locator("td").nth(4).textContent()).not.toBe("Never");
    const refused = await curlShorten(server.baseUrl, key, "https://example.com/after-revoke");
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "unauthenticated" });

    await page.getByRole("button", { name: "Refresh" }).click();
    const audit = page.locator("table.audit tbody tr");
    await expect.poll(() => audit.count(), { timeout: 15_000 }).toBe(4);
    const entries = await audit.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].slice(1).map((td) => td.textContent)));
    expect(entries).toEqual([
      [`${ada} (user)`, "key.revoked", expect.stringMatching(/^key \d+$/)],
      ["Deploy script (API key)", "link.created", `link ${code}`],
      [`${ada} (user)`, "key.created", expect.stringMatching(/^key \d+$/)],
      [`${ada} (user)`, "workspace.created", expect.stringMatching(/^workspace \d+$/)],
    ]);
    await screenshot(page, "team-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "team-390");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("invites a second person with a token shown once; they accept it and see the team", async () => {
    await page.getByRole("form", { name: "Invite someone" }).getByLabel("Role").selectOption("viewer");
    await page.getByRole("button", { name: "Create invitation" }).click();
    const token = (await page.locator("form[aria-label='Invite someone'] code.secret").textContent())!.trim();

    const grace = await signedInPage(web.browser, server.baseUrl, `grace-${stamp}@example.com`, { width: 390 });
    await grace.getByRole("link", { name: "Team" }).click();
    await grace.getByLabel("Invitation token").fill("not-a-real-token");
    await grace.getByRole("button", { name: "Accept invitation" }).click();
    await grace.getByText("invitation not found, already used or expired").waitFor();
    await grace.getByLabel("Invitation token").fill(token);
    await grace.getByRole("button", { name: "Accept invitation" }).click();
    await grace.getByText("You joined Docs team as viewer.").waitFor();
    await grace.getByRole("heading", { name: "Team: Docs team" }).waitFor();
    // The members load after the heading shows: poll until both rows are there.
    await expect
      .poll(() => grace.locator("table.members tbody tr").allTextContents())
      .toEqual([expect.stringContaining(ada), expect.stringContaining("viewer")]);
    expect(await grace.getByRole("heading", { name: "API keys" }).count()).toBe(0);
    await screenshot(grace, "team-viewer-390");

    await page.reload();
    await page.getByRole("heading", { name: "Team: Docs team" }).waitFor(); // the choice outlives a reload
    const graceRow = page.locator("table.members tbody tr", { hasText: "grace-" });
    await graceRow.getByLabel(/^Role of/).selectOption("member");
    await page.getByRole("button", { name: "Refresh" }).click();
    await page.locator("table.audit tbody tr", { hasText: "member.role_changed" }).waitFor();
    await grace.getByRole("button", { name: "Leave" }).click();
    await grace.getByRole("heading", { name: "Team: Personal" }).waitFor();
    await grace.context().close();
  });
});
