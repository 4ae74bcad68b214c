// The pages a browser gets for links it cannot follow, in Chromium: every state (unknown, deleted,
// expired, password, disabled, limit reached, flagged) with its status at 1280 and 390 px beside the
// JSON an API client still gets; the password page (wrong, then right password lands on the target;
// its HTML never holds the target). Screenshots go to web/test-output/.
import { expect, it } from "vitest";
import { describeLocal, expectErrorResponse } from "../local/testing";
import { openPage, screenshot, screenshotPhoneAndDark, useBrowser } from "../web/__tests__/browser";
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
    await screenshotPhoneAndDark(web.browser, `${api.baseUrl}/${code}`, "visitor-password", (page) =>
      page.getByLabel("Password", { exact: true }),
    );
  });

  it("shows every state as a page with its status at 1280 and 390 px, and answers API clients with the unchanged JSON", async () => {
    const made = async (path: string, extra: Record<string, unknown> = {}) => shorten({ url: `${web.target.origin}/${path}`, ...extra });
    const deleted = await made("deleted-target");
    expect((await api.call("DELETE", `/urls/${deleted}`, api.tokens[0])).ok).toBe(true);
    const expired = await made("expired-target");
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${expired}`;
    const locked = await made("locked-target", { password: "correct horse" });
    const disabled = await made("disabled-target");
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'phishing' WHERE code = ${disabled}`;
    const exhausted = await made("exhausted-target", { maxClicks: 1 });
    expect((await api.call("GET", `/${exhausted}`)).status).toBe(200);
    const flagged = await made("flagged-target");
    await db.exec`UPDATE urls SET flagged = true WHERE code = ${flagged}`;
    const warning = `You are leaving for ${new URL(web.target.origin).hostname}`;
    // Each state's name, code, status (the page's and the JSON answer's alike), the page's heading and the JSON body.
    const states: [string, string, number, string, unknown][] = [
      ["unknown", "zzzzzz", 404, "Link not found", { code: "not_found", message: "URL not found" }],
      ["deleted", deleted, 404, "Link not found", { code: "not_found", message: "URL not found" }],
      ["expired", expired, 404, "This link has expired", { code: "not_found", message: "URL has expired" }],
      ["password", locked, 403, "This link is protected by a password", { code: "permission_denied", message: "password required" }],
      ["disabled", disabled, 403, "This link has been disabled", { code: "permission_denied", message: "this link has been disabled" }],
      [
        "limit-reached",
        exhausted,
        404,
        "This link is no longer available",
        { code: "not_found", message: "URL has reached its click limit" },
      ],
      ["flagged", flagged, 200, warning, { url: `${web.target.origin}/flagged-target` }],
    ];
    for (const [name, code, status, heading, body] of states) {
      for (const width of [1280, 390]) {
        const page = await openPage(web.browser, { width });
        const resp = await page.goto(`${api.baseUrl}/${code}`);
        expect({ state: name, status: resp!.status() }).toEqual({ state: name, status });
        expect(resp!.headers()["content-type"]).toBe("text/html; charset=utf-8");
        await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
        // Only the warning names where the link goes (its host, to judge it by); no other page holds the target.
        if (name !== "flagged") expect(await resp!.text()).not.toContain(new URL(web.target.origin).host);
        expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(true);
        await screenshot(page, `visitor-${name}-${width}`);
        await page.context().close();
      }
      const json = await api.call("GET", `/${code}`);
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
      if (status === 200) expect({ status: json.status, body: await json.json() }).toEqual({ status, body });
      else await expectErrorResponse(json, status, body as { code: "not_found"; message: string });
    }
    // None of the pages counted a click, nor did the JSON answers of the links that lead nowhere.
    const clicks = await db.queryAll<{ code: string; clicks: number }>`
      SELECT code, clicks FROM urls WHERE code = ANY(${[expired, locked, disabled, exhausted, flagged]}::text[]) ORDER BY code`;
    expect(Object.fromEntries(clicks.map((r) => [r.code, r.clicks]))).toEqual({
      [expired]: 0,
      [locked]: 0,
      [disabled]: 0,
      [exhausted]: 1,
      [flagged]: 1,
    });
  });
});
