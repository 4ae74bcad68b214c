// The link pages in Chromium: shorten a bare domain (https:// added and shown), every bad field named in
// words at once and the API's refusals beside their field, edit a link's target and expiry from My links,
// a details page for an expired and a limit-reached link, the QR code downloaded and decoded, and the
// compact list searched and sorted, at 1280 and 390 pixels. Screenshots go to web/test-output/.
import jsQR from "jsqr";
import { PNG } from "pngjs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeLocal, useTestServer } from "../local/testing";
import { screenshot, signedInPage, useBrowser } from "./__tests__/browser";

describeLocal("the link pages (Chromium)", () => {
  const server = useTestServer();
  const web = useBrowser();
  let page: Page;
  let token: string;
  const email = `links-${process.pid}-${Date.now()}@example.com`;
  const admins = process.env.ADMIN_EMAILS;
  beforeAll(async () => {
    // The user is a site admin too, to disable and flag links through the admin API.
    process.env.ADMIN_EMAILS = email;
    page = await signedInPage(web.browser, server.baseUrl, email, { width: 1280 });
    token = ((await page.evaluate(`JSON.parse(localStorage.getItem("shortener.session"))`)) as { token: string }).token;
  });
  afterAll(() => {
    if (admins === undefined) delete process.env.ADMIN_EMAILS;
    else process.env.ADMIN_EMAILS = admins;
  });

  /** Calls the API as the signed-in user, as a script would. */
  async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(server.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    return (await res.json()) as T;
  }

  /** Both widths of one page: 1280 (the context's) and a 390-pixel phone. */
  async function bothWidths(name: string): Promise<void> {
    await screenshot(page, `links-${name}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing may stick out sideways on a phone.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    await screenshot(page, `links-${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it("adds https:// to a bare domain before sending it, and shows it", async () => {
    await page.getByLabel("Long URL", { exact: true }).fill("example.com/x");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    const result = page.getByRole("region", { name: "Your short link" });
    await result.waitFor();
    expect(await result.locator(".target").textContent()).toBe("Goes to https://example.com/x");
    // Leaving the field shows the scheme before anything is sent.
    await page.getByLabel("Long URL", { exact: true }).fill("example.org/typed");
    await page.getByLabel("Alias", { exact: true }).focus();
    expect(await page.getByLabel("Long URL", { exact: true }).inputValue()).toBe("https://example.org/typed");
    await page.getByLabel("Long URL", { exact: true }).fill("");
    await bothWidths("shorten");
  });

  it("names every bad field in words at once, before sending, and puts the API's refusal beside its field", async () => {
    const sent: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => r.method() === "POST" && sent.push(r.url());
    page.on("request", onRequest);
    await page.getByLabel("Long URL", { exact: true }).fill("not a url");
    await page.getByLabel("Alias", { exact: true }).fill("no!");
    await page.getByText("More options").click();
    await page.getByLabel("Click limit", { exact: true }).fill("many");
    await page.getByLabel("Tags", { exact: true }).fill("ok, bad tag!");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    await page.locator("#field-url-error").waitFor();
    expect(await page.locator("#field-url-error").textContent()).toBe("The long URL is not a valid URL.");
    expect(await page.locator("#field-alias-error").textContent()).toBe(
      "The alias must be 3 to 64 characters, each a letter, a digit, '_' or '-'.",
    );
    expect(await page.locator("#field-maxClicks-error").textContent()).toBe(
      "The click limit must be a whole number from 1 to 1,000,000,000.",
    );
    expect(await page.locator("#field-tags-error").textContent()).toBe(
      `"tag!" is not a tag: each must be 1 to 32 letters, digits, '-' or '_'.`,
    );
    expect(await page.getByLabel("Alias", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await bothWidths("shorten-errors");
    page.off("request", onRequest);
    expect(sent).toEqual([]);

    // What only the server knows (the alias is taken) comes back beside the field too, in words.
    await api("POST", "/shorten", { url: "https://example.com/first", alias: "taken-one" });
    await page.getByLabel("Long URL", { exact: true }).fill("https://example.com/second");
    await page.getByLabel("Alias", { exact: true }).fill("taken-one");
    await page.getByLabel("Click limit", { exact: true }).fill("");
    await page.getByLabel("Tags", { exact: true }).fill("");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    await page.locator("#field-alias-error").getByText("The alias is already taken.").waitFor();
    expect(await page.locator("#field-url-error").count()).toBe(0);
  });

  it("edits a link's target and expiry from My links, and shows them on its details page", async () => {
    await api("POST", "/shorten", { url: "https://example.com/before", alias: "to-edit", tags: ["edit"] });
    await page.goto(server.baseUrl + "/#/links");
    const row = page.getByRole("row", { name: `${server.baseUrl}/to-edit` });
    await row.getByRole("link", { name: "Edit to-edit" }).click();
    const form = page.getByRole("form", { name: "Edit link" });
    await form.waitFor();
    expect(await form.getByLabel("Long URL", { exact: true }).inputValue()).toBe("https://example.com/before");
    expect(await form.getByTestId("code").textContent()).toBe("to-edit");
    await bothWidths("edit");

    // A past expiry and a bad iPhone URL are both refused in words, nothing saved.
    await form.getByLabel("Expires", { exact: true }).fill("2020-01-01T10:00");
    await form.getByLabel("iPhone and iPad URL", { exact: true }).fill("ftp://example.com/app");
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.locator("#field-expires-error").getByText("The expiry must be in the future.").waitFor();
    expect(await page.locator("#field-iosUrl-error").textContent()).toBe(
      `The iPhone and iPad URL scheme "ftp:" is not allowed: only http and https links can be shortened.`,
    );
    await form.getByLabel("iPhone and iPad URL", { exact: true }).fill("");

    const next = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    const local = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, "0")}-${String(next.getDate()).padStart(2, "0")}T09:30`;
    await form.getByLabel("Long URL", { exact: true }).fill("example.org/after");
    await form.getByLabel("Expires", { exact: true }).fill(local);
    await form.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: `${server.baseUrl}/to-edit` }).waitFor();
    await expect.poll(() => page.getByTestId("target").textContent()).toBe("Goes to https://example.org/after");
    const stored = await api<{ originalUrl: string; expiresAt: string; tags: string[] }>("GET", "/urls/to-edit");
    expect(stored.originalUrl).toBe("https://example.org/after");
    expect(new Date(stored.expiresAt).getTime()).toBe(new Date(local).getTime());
    expect(stored.tags).toEqual(["edit"]);
    expect(await page.getByTestId("expires").textContent()).not.toBe("Never");
  });

  it("shows an expired, a limit-reached, a disabled and a flagged link's data, marked as such, with removal dates, in the list and on its page", async () => {
    await api("POST", "/shorten", { url: "https://example.com/taken-down", alias: "taken-down" });
    await api("PATCH", "/admin/urls/taken-down", { disabled: true, reason: "phishing" });
    await api("POST", "/shorten", { url: "https://example.com/odd", alias: "flagged-one" });
    await api("PATCH", "/admin/urls/flagged-one", { flagged: true });
    await api("POST", "/shorten", { url: "https://example.com/soon-gone", alias: "soon-gone", expiresAt: new Date(Date.now() + 1500) });
    await api("POST", "/shorten", { url: "https://example.com/once", alias: "only-once", maxClicks: 1 });
    expect((await fetch(`${server.baseUrl}/only-once`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));

    await page.goto(server.baseUrl + "/#/links/soon-gone");
    await page.getByTestId("target").getByText("https://example.com/soon-gone").waitFor();
    expect(await page.getByTestId("status").allTextContents()).toEqual(["Expired"]);
    expect(await page.getByTestId("removal").textContent()).toMatch(/^Removed on .+: expired links are deleted 30 days after they expire/);
    expect(await page.locator(".error").count()).toBe(0);
    await bothWidths("details-expired");

    await page.goto(server.baseUrl + "/#/links/only-once");
    await page.getByTestId("target").getByText("https://example.com/once").waitFor();
    expect(await page.getByTestId("status").allTextContents()).toEqual(["Limit reached"]);

    await page.goto(server.baseUrl + "/#/links/taken-down");
    await page.getByTestId("target").getByText("https://example.com/taken-down").waitFor();
    expect(await page.getByTestId("status").allTextContents()).toEqual(["Disabled"]);
    await page.getByText("The site's admins disabled this link: phishing. It leads nowhere.").waitFor();
    // Only the site's admins can change a disabled link: no Edit.
    expect(await page.getByRole("link", { name: "Edit", exact: true }).count()).toBe(0);

    await page.goto(server.baseUrl + "/#/links");
    const expired = page.getByRole("row", { name: `${server.baseUrl}/soon-gone` });
    await expired.waitFor();
    expect(await expired.getByTestId("status").allTextContents()).toEqual(["Expired"]);
    expect(
      await page
        .getByRole("row", { name: `${server.baseUrl}/only-once` })
        .getByTestId("status")
        .allTextContents(),
    ).toEqual(["Limit reached"]);
    // Never clicked and never expiring: removed 90 days after it was made, unless clicked.
    const made = new Date((await api<{ createdAt: string }>("GET", "/urls/taken-one")).createdAt);
    const removal = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(new Date(made.getTime() + 90 * 24 * 3600 * 1000));
    expect(
      await page
        .getByRole("row", { name: `${server.baseUrl}/taken-one` })
        .getByTestId("removal")
        .textContent(),
    ).toBe(`Removed ${removal} unless clicked`);
  });

  it("downloads the QR code as a PNG that decodes to the short URL", async () => {
    await page.goto(server.baseUrl + "/#/links/to-edit");
    await page.getByRole("img", { name: `QR code for ${server.baseUrl}/to-edit` }).waitFor();
    await bothWidths("details");
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download PNG" }).click()]);
    expect(file.suggestedFilename()).toBe("qr-to-edit.png");
    const chunks = (await (await file.createReadStream()).toArray()) as Buffer[];
    const png = PNG.sync.read(Buffer.concat(chunks));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    // The code carries ?qr=1, so a scan is counted as one.
    expect(decoded?.data).toBe(`${server.baseUrl}/to-edit?qr=1`);
  });

  it("lists 30 links compactly, searches them and sorts them by clicks and by code", async () => {
    for (let i = 0; i < 23; i++) {
      await api("POST", "/shorten", {
        url: `https://example.com/a/very/long/path/that/goes/on/and/on/for/a/while/number-${i}`,
        alias: `bulk-${i}`,
      });
    }
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.baseUrl}/bulk-7`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/bulk-3`)).status).toBe(200);

    await page.goto(server.baseUrl + "/#/links");
    const rows = page.locator("tr.link");
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBe(30);
    await bothWidths("list");
    const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
    expect(height).toBeLessThan(2200);
    // A long target is cut with an ellipsis and readable in full on hover.
    const target = page.getByRole("row", { name: `${server.baseUrl}/bulk-0` }).locator(".target");
    expect(await target.getAttribute("title")).toBe("https://example.com/a/very/long/path/that/goes/on/and/on/for/a/while/number-0");
    const cut = `getComputedStyle(document.querySelector('tr.link[aria-label="${server.baseUrl}/bulk-0"] .target')).textOverflow`;
    expect(await page.evaluate(cut)).toBe("ellipsis");

    await page.getByLabel("Search", { exact: true }).fill("NUMBER-1");
    await expect
      .poll(() => page.locator("tr.link .code a").allTextContents())
      .toEqual(["bulk-19", "bulk-18", "bulk-17", "bulk-16", "bulk-15", "bulk-14", "bulk-13", "bulk-12", "bulk-11", "bulk-10", "bulk-1"]);
    await page.getByLabel("Sort", { exact: true }).selectOption("code");
    await expect
      .poll(() => page.locator("tr.link .code a").allTextContents())
      .toEqual(["bulk-1", "bulk-10", "bulk-11", "bulk-12", "bulk-13", "bulk-14", "bulk-15", "bulk-16", "bulk-17", "bulk-18", "bulk-19"]);
    await page.getByLabel("Search", { exact: true }).fill("bulk-");
    await page.getByLabel("Sort", { exact: true }).selectOption("clicks");
    await expect.poll(async () => (await page.locator("tr.link .code a").allTextContents()).slice(0, 2)).toEqual(["bulk-7", "bulk-3"]);
    expect(await page.locator("tr.link").first().getByTestId("clicks").textContent()).toBe("3");
  });
});
