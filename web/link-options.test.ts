// The link options in the web app, in Chromium: the shorten form's password, click limit, tags and UTM
// builder with its live preview, a field error in words, the links page's search and tag filter, import
// with per-row results and export. Screenshots go to web/test-output/.
import type { Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { describeLocal, useTestServer } from "../local/testing";
import { screenshot, signedInPage, useBrowser } from "./__tests__/browser";

describeLocal("link options in the web app (Chromium)", () => {
  const server = useTestServer();
  const web = useBrowser();
  let page: Page;
  beforeAll(async () => {
    page = await signedInPage(web.browser, server.baseUrl, `options-${process.pid}-${Date.now()}@example.com`);
  });

  it("shortens with a password, a click limit, tags and UTM parameters, previewing the final URL", async () => {
    await page.getByLabel("Long URL", { exact: true }).fill("https://example.com/landing?ref=a%20b#top");
    await page.getByText("More options").click();
    await page.getByLabel("Source", { exact: true }).fill("newsletter");
    await page.getByLabel("Campaign", { exact: true }).fill("spring sale");
    const merged = "https://example.com/landing?ref=a%20b&utm_source=newsletter&utm_campaign=spring%20sale#top";
    await expect.poll(() => page.getByTestId("utm-preview").textContent(), { timeout: 15_000 }).toBe(merged);
    await page.getByLabel("Password", { exact: true }).fill("open sesame 1");
    await page.getByLabel("Click limit", { exact: true }).fill("5");
    await page.getByLabel("Tags", { exact: true }).fill("bad tag!");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    const tagError = page.locator("#field-tags-error");
    await tagError.waitFor();
    expect(await tagError.textContent()).toBe(`"tag!" is not a tag: each must be 1 to 32 letters, digits, '-' or '_'.`);
    await screenshot(page, "options-tag-error");

    await page.getByLabel("Tags", { exact: true }).fill("Launch, blog");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    const result = page.getByRole("region", { name: "Your short link" });
    await result.waitFor();
    expect(await result.locator(".target").textContent()).toBe(`Goes to ${merged}`);
    await screenshot(page, "options-shortened");
  });

  it("lists tags, password and limit; searches and filters by tag; imports a CSV with per-row results; exports", async () => {
    await page.getByRole("link", { name: "My links" }).click();
    await page.getByRole("heading", { name: "My links" }).waitFor();
    const first = page.locator("tr.link").first();
    await first.getByText("Password", { exact: true }).waitFor();
    expect(await first.locator(".tags li").allTextContents()).toEqual(["launch", "blog"]);

    const csv =
      "url,alias,tags\nhttps://example.com/imported-one,,imported\nftp://example.com/nope,,\nhttps://example.com/imported-two,,imported;blog\n";
    await page.setInputFiles("#import-file", { name: "links.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const status = page.locator(".import-result");
    await status.waitFor();
    expect((await status.locator("p").first().textContent())!.replace(/\s+/g, " ")).toBe(
      "2 links created, 0 already there, 1 rows not imported.",
    );
    expect(await status.locator(".import-errors li").allTextContents()).toEqual([
      'Line 3: url scheme "ftp:" is not allowed: only http and https links can be shortened',
    ]);
    await expect.poll(() => page.locator("tr.link").count(), { timeout: 15_000 }).toBe(3);
    await screenshot(page, "options-imported");

    await page.getByLabel("Search", { exact: true }).fill("IMPORTED-T");
    await expect
      .poll(() => page.locator("tr.link .target").allTextContents(), { timeout: 15_000 })
      .toEqual(["https://example.com/imported-two"]);
    await page.getByLabel("Search", { exact: true }).fill("");
    await page.getByLabel("Tag", { exact: true }).selectOption("blog");
    await expect.poll(() => page.locator("tr.link").count(), { timeout: 15_000 }).toBe(2);
    await screenshot(page, "options-tag-filter");

    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const text = await (await file.createReadStream()).toArray();
    const lines = Buffer.concat(text as Buffer[])
      .toString("utf8")
      .trimEnd()
      .split("\n");
    expect(lines[0]).toBe("code,shortUrl,originalUrl,clicks,createdAt,expiresAt,tags,maxClicks");
    expect(lines).toHaveLength(4);
  });

  it("changes a link's options in its edit form: tags, click limit, and its password removed and set again", async () => {
    await page.getByLabel("Tag", { exact: true }).selectOption("launch");
    await expect.poll(() => page.locator("tr.link").count(), { timeout: 15_000 }).toBe(1);
    await page
      .locator("tr.link")
      .getByRole("link", { name: /^Edit / })
      .click();
    const form = page.getByRole("form", { name: "Edit link" });
    await form.waitFor();
    expect(await page.getByTestId("password-state").textContent()).toBe("Visitors must enter a password.");
    expect(await form.getByLabel("Click limit", { exact: true }).inputValue()).toBe("5");
    // The UTM parameters stored in the target come back in their own fields.
    expect(await form.getByLabel("Campaign", { exact: true }).inputValue()).toBe("spring sale");
    expect(await form.getByLabel("Long URL", { exact: true }).inputValue()).toBe("https://example.com/landing?ref=a%20b#top");
    await screenshot(page, "options-link-edit");

    await form.getByRole("button", { name: "Remove password" }).click();
    await expect
      .poll(() => page.getByTestId("password-state").textContent(), { timeout: 15_000 })
      .toBe("No password: anyone with the link can follow it.");
    await form.getByLabel("Tags", { exact: true }).fill("launch, spring");
    await form.getByLabel("Click limit", { exact: true }).fill("");
    await form.getByLabel("Password", { exact: true }).fill("a brand new secret");
    await form.getByRole("button", { name: "Save changes" }).click();
    const facts = page.locator(".details .facts");
    await facts.waitFor();
    await expect.poll(() => facts.locator("div", { hasText: "Password" }).locator("dd").textContent()).toBe("Required");
    expect(await facts.locator("div", { hasText: "Click limit" }).locator("dd").textContent()).toBe("None");
    expect(await page.locator(".details .tags li").allTextContents()).toEqual(["launch", "spring"]);
    // The page never shows the password itself, nor its hash.
    expect(await page.content()).not.toMatch(/a brand new secret|scrypt/);
  });
});
