// The pages a browser gets for links it cannot follow, in Chromium: the password page (wrong, then
// right password lands on the target; its HTML never holds the target), and the not-found, expired and
// click-limit pages with their statuses. Screenshots go to web/test-output/.
import { expect, it } from "vitest";
import { describeLocal } from "../local/testing";
import { openPage, screenshot, useBrowser } from "../web/__tests__/browser";
import { db } from "./db";
import { serveApiForThisFile } from "./__tests__/helpers";

describeLocal("visitor pages in Chromium", () => {
  const api = serveApiForThisFile(1);
  const web = useBrowser();

  async function shorten(body: Record<string, unknown>): Promise<string> {
    const resp = await api.call("POST", "/shorten", api.tokens[0], body);
    expect(resp.status).toBe(200);
    return ((await resp.json()) as { code: string }).code;
  }

  it("asks for the password, refuses a wrong one, and lands on the target with the right one", async () => {
    const landing = `${web.target.origin}/secret-landing?token=abc`;
    const code = await shorten({ url: landing, password: "correct horse" });
    const page = await openPage(web.browser);
    const resp = await page.goto(`${api.baseUrl}/${code}?utm_source=poster`);
    expect(resp!.status()).toBe(403);
    const served = await resp!.text();
    expect(served).not.toContain("secret-landing");
    expect(served).not.toContain("target.test");
    await page.getByRole("heading", { name: "This link is protected by a password" }).waitFor();
    await screenshot(page, "visitor-password");

    await page.getByLabel("Password", { exact: true }).fill("wrong horse");
    await page.getByRole("button", { name: "Open link" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("That password is not right. Try again.");
    expect(await page.content()).not.toContain("secret-landing");
    await screenshot(page, "visitor-password-wrong");

    await page.getByLabel("Password", { exact: true }).fill("correct horse");
    await page.getByRole("button", { name: "Open link" }).click();
    await page.waitForURL(landing);
    expect(await page.getByRole("heading", { name: "Landed" }).isVisible()).toBe(true);
    expect(web.target.hits).toContain("/secret-landing?token=abc");
    // One click, and it kept the campaign of the page's own query.
    const row = await db.queryRow<{ clicks: number; campaign: string }>`
      SELECT u.clicks, f.campaign FROM urls u JOIN url_click_facts f ON f.url_id = u.id WHERE u.code = ${code}`;
    expect(row).toEqual({ clicks: 1, campaign: "poster / (not set) / (not set)" });
    await page.context().close();
  });

  it("shows the password page at phone width and in dark mode", async () => {
    const code = await shorten({ url: `${web.target.origin}/phone`, password: "correct horse" });
    for (const [name, options] of [
      ["visitor-password-phone", { width: 390 }],
      ["visitor-password-dark", { dark: true }],
    ] as const) {
      const page = await openPage(web.browser, options);
      await page.goto(`${api.baseUrl}/${code}`);
      await page.getByLabel("Password", { exact: true }).waitFor();
      await screenshot(page, name);
      await page.context().close();
    }
  });

  it("shows unknown, expired and exhausted links as pages with their 404", async () => {
    const expired = await shorten({ url: `${web.target.origin}/expired` });
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${expired}`;
    const exhausted = await shorten({ url: `${web.target.origin}/exhausted`, maxClicks: 1 });
    expect((await api.call("GET", `/${exhausted}`)).status).toBe(200);
    for (const [code, heading, name] of [
      ["zzzzzz", "Link not found", "visitor-not-found"],
      [expired, "This link has expired", "visitor-expired"],
      [exhausted, "This link is no longer available", "visitor-limit-reached"],
    ]) {
      const page = await openPage(web.browser);
      const resp = await page.goto(`${api.baseUrl}/${code}`);
      expect(resp!.status()).toBe(404);
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await page.content()).not.toContain(web.target.origin);
      await screenshot(page, name);
      await page.context().close();
    }
  });
});
