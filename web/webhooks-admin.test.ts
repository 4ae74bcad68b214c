// The webhooks page and the site admins' page in Chromium against `npm start`'s code path: add a
// webhook, copy its secret (shown once), send a test that a loopback receiver verifies, see the
// delivery; then, as a site admin, disable a reported link and block a host. Screenshots go to
// web/test-output/.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeLocal, startApp, type SpawnedApp } from "../local/testing";
import { startReceiver, type TestReceiver } from "../webhooks/__tests__/receiver";
import { screenshot, signedInPage, useBrowser } from "./__tests__/browser";

const STARTUP_MS = 240_000;
const STEP_MS = 60_000;
vi.setConfig({ testTimeout: 4 * STEP_MS });

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const email = `admin-${process.pid}-${Date.now()}@example.com`;
const password = "correct horse battery";

let app: SpawnedApp;
let receiver: TestReceiver;

describeLocal("webhooks and admin pages in Chromium", () => {
  const web = useBrowser();
  beforeAll(async () => {
    const env = { WEBHOOKS_ALLOW_PRIVATE: "1", ADMIN_EMAILS: email };
    [app, receiver] = await Promise.all([startApp(appRoot, env), startReceiver()]);
  }, STARTUP_MS);

  afterAll(async () => {
    await receiver?.close();
    if (app) expect(await app.stop()).toBe(0);
  }, STARTUP_MS);

  const signedIn = (button: "Sign up" | "Log in"): Promise<Page> => signedInPage(web.browser, app.baseUrl, email, { button });

  it("adds a webhook, shows its secret once, and lists a verified test delivery", async () => {
    const page = await signedIn("Sign up");
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByLabel("Receiver URL").fill(receiver.url);
    await page.getByLabel("link.deleted").check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.locator("code.secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await screenshot(page, "webhooks-created");

    const card = page.getByRole("article", { name: receiver.url });
    await card.getByRole("button", { name: "Deliveries" }).click();
    await card.getByText("Nothing sent yet").waitFor();
    await card.getByRole("button", { name: "Send a test event" }).click();
    await card.getByText("Delivered: the receiver answered 204.").waitFor();
    await card.locator("tr.outcome-delivered").first().waitFor();
    expect(await card.locator("tbody tr").first().textContent()).toContain("webhook.test");
    expect([...receiver.events.values()].map((e) => e.type)).toEqual(["webhook.test"]);
    await screenshot(page, "webhooks-deliveries");

    await page.reload();
    await page.getByRole("article", { name: receiver.url }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.context().close();
  });

  it("lets a site admin disable, flag and resolve a reported link and block a host", async () => {
    const { token } = (await (
      await fetch(`${app.baseUrl}/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email, password }),
      })
    ).json()) as { token: string };
    const { code } = (await (
      await fetch(`${app.baseUrl}/shorten`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ url: "https://reported.example/login" }),
      })
    ).json()) as { code: string };
    const report = await fetch(`${app.baseUrl}/${code}/report`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ reason: "phishing", details: "fake bank login" }),
    });
    expect(report.status).toBe(200);

    const page = await signedIn("Log in");
    await page.getByRole("link", { name: "Admin" }).click();
    const card = page.getByRole("article").filter({ hasText: `/${code}: phishing` });
    await card.waitFor();
    await screenshot(page, "admin-reports");
    await card.getByRole("button", { name: "Disable link" }).click();
    await page.getByText(`Disabled /${code}`).waitFor();
    const visit = await fetch(`${app.baseUrl}/${code}`);
    expect(visit.status).toBe(403);
    await card.getByRole("button", { name: "Show a warning" }).click();
    await page.getByText(`Flagged /${code}`).waitFor();
    // A resolved report leaves the list of open ones.
    await card.getByRole("button", { name: "Resolve" }).click();
    await page.getByText(/^Resolved report \d+$/).waitFor();
    await card.waitFor({ state: "detached" });

    await page.getByLabel("Host to block").fill("evil.example");
    await page.getByRole("button", { name: "Block host" }).click();
    await page.locator(".blocklist code", { hasText: "evil.example" }).waitFor();
    await screenshot(page, "admin-blocklist");
    await page.context().close();
  });
});
