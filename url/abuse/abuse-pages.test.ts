// The abuse pages in Chromium: a disabled link's page (no target in it) with its report link, the
// report form sent from it, and a flagged link's warning that counts the click only on continue.
// Screenshots go to web/test-output/.
import { expect, it } from "vitest";
import { describeLocal } from "../../local/testing";
import { openPage, screenshot, screenshotPhoneAndDark, useBrowser } from "../../web/__tests__/browser";
import { db } from "../db";
import { serveApiForThisFile } from "../__tests__/helpers";

describeLocal("abuse pages in Chromium", () => {
  const api = serveApiForThisFile(1);
  const web = useBrowser();

  async function shorten(url: string): Promise<string> {
    const resp = await api.call("POST", "/shorten", api.tokens[0], { url });
    expect(resp.status).toBe(200);
    return ((await resp.json()) as { code: string }).code;
  }

  const clicksOf = async (code: string) => (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;

  it("shows a disabled link's page without its target, and sends a report from its report link", async () => {
    const code = await shorten(`${web.target.origin}/stolen-login`);
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'phishing' WHERE code = ${code}`;
    const page = await openPage(web.browser);
    const resp = await page.goto(`${api.baseUrl}/${code}`);
    expect(resp!.status()).toBe(403);
    const served = await resp!.text();
    expect(served).not.toContain("stolen-login");
    expect(served).not.toContain(new URL(web.target.origin).host);
    await page.getByRole("heading", { name: "This link has been disabled" }).waitFor();
    await screenshot(page, "abuse-disabled");

    await page.getByRole("link", { name: "Report this link" }).click();
    await page.getByRole("heading", { name: "Report a link" }).waitFor();
    await page.getByLabel("What is wrong with this link?").selectOption("malware");
    await page.getByLabel("Details (optional)").fill("it downloaded an .exe");
    await screenshot(page, "abuse-report-form");
    await page.getByRole("button", { name: "Send report" }).click();
    await page.getByText("Thank you. The site's administrators will look at this link.").waitFor();
    await screenshot(page, "abuse-report-sent");
    const report = await db.queryRow`SELECT reason, details, status FROM link_reports WHERE code = ${code}`;
    expect(report).toEqual({ reason: "malware", details: "it downloaded an .exe", status: "open" });
    expect(await clicksOf(code)).toBe(0);
    expect(web.target.hits.some((h) => h.startsWith("/stolen-login"))).toBe(false);
    await page.context().close();
  });

  it("warns before a flagged link, counts nothing on the warning, and lands on the target after Continue", async () => {
    const code = await shorten(`${web.target.origin}/flagged-offer`);
    await db.exec`UPDATE urls SET flagged = true WHERE code = ${code}`;
    await screenshotPhoneAndDark(web.browser, `${api.baseUrl}/${code}`, "abuse-warning", (page) =>
      page.getByRole("link", { name: /^Continue to / }),
    );
    const page = await openPage(web.browser);
    const resp = await page.goto(`${api.baseUrl}/${code}?utm_source=chat`);
    expect(resp!.status()).toBe(200);
    await page.getByRole("heading", { name: `You are leaving for ${new URL(web.target.origin).hostname}` }).waitFor();
    await screenshot(page, "abuse-warning");
    expect(await clicksOf(code)).toBe(0);

    await page.getByRole("link", { name: /^Continue to / }).click();
    await page.waitForURL(`${web.target.origin}/flagged-offer`);
    expect(await clicksOf(code)).toBe(1);
    const row = await db.queryRow<{ campaign: string }>`
      SELECT f.campaign FROM urls u JOIN url_click_facts f ON f.url_id = u.id WHERE u.code = ${code}`;
    expect(row).toEqual({ campaign: "chat / (not set) / (not set)" });
    await page.context().close();
  });
});
