// The web app in a real browser (Debian's Chromium) against `npm start`'s code path: a user's whole
// journey, errors beside their field, a session that survives a reload and ends on a 401, the
// keyboard alone, a phone-sized screen and dark mode. Screenshots go to web/test-output/.
// Page-side code is passed as strings: the app's tsconfig has no DOM types.
import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeLocal, startApp, type SpawnedApp } from "../local/testing";
import { launchChromium, screenshot, startTargetSite, submitAccountForm, type TargetSite } from "./__tests__/browser";

/** Starting the whole app (three databases migrated) takes a minute on a loaded machine. */
const STARTUP_MS = 240_000;
/** Browser steps wait this long for the page; the machine running tests may be shared. */
const STEP_MS = 60_000;

vi.setConfig({ testTimeout: 4 * STEP_MS });

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

let app: SpawnedApp;
let target: TargetSite;
let browser: Browser;

describeLocal("web app in Chromium", () => {
  beforeAll(async () => {
    // Behind one trusted proxy with a CDN's country header, so the test's visits can come from anywhere.
    const env = { TRUSTED_PROXY_HOPS: "1", TRUSTED_COUNTRY_HEADER: "CF-IPCountry" };
    [app, target, browser] = await Promise.all([startApp(appRoot, env), startTargetSite(), launchChromium()]);
  }, STARTUP_MS);

  afterAll(async () => {
    await browser?.close();
    await target?.close();
    if (app) expect(await app.stop()).toBe(0);
  }, STARTUP_MS);

  /** A fresh browser profile on the app (own localStorage), optionally sized or dark. */
  async function openApp(
    options: { width?: number; height?: number; dark?: boolean } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 1100, height: options.height ?? 800 },
      colorScheme: options.dark ? "dark" : "light",
    });
    context.setDefaultTimeout(STEP_MS);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.baseUrl });
    const page = await context.newPage();
    await page.goto(app.baseUrl + "/");
    return { context, page };
  }

  let accounts = 0;
  async function signUp(page: Page): Promise<string> {
    const email = `web-${process.pid}-${Date.now()}-${++accounts}@example.com`;
    await submitAccountForm(page, email);
    return email;
  }

  /** Shortens a URL through the form; returns the short URL the page shows as text. */
  async function shorten(page: Page, url: string): Promise<string> {
    await page.getByLabel("Long URL", { exact: true }).fill(url);
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    const link = page.getByRole("region", { name: "Your short link" }).locator(".short-url");
    await link.waitFor();
    return (await link.textContent())!.trim();
  }

  /** The code of a short URL: its last path segment. */
  function code(shortUrl: string): string {
    return new URL(shortUrl).pathname.slice(1);
  }

  /** The accessible description of a field: the API's error shown beneath it. */
  async function fieldError(page: Page, label: string): Promise<string> {
    const input = page.getByLabel(label, { exact: true });
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    const ids = (await input.getAttribute("aria-describedby"))!.split(" ");
    const errorId = ids.find((id) => id.endsWith("-error"))!;
    return (await page.locator(`#${errorId}`).textContent())!.trim();
  }

  it("takes a user from sign-up to a short link that lands on its target, counts the click and deletes it", async () => {
    const { context, page } = await openApp();
    await signUp(page);

    const landing = `${target.origin}/landing?from=browser-test`;
    const shortUrl = await shorten(page, landing);
    expect(shortUrl).toMatch(new RegExp(`^${app.baseUrl.replace(/[.]/g, "\\.")}/[0-9a-z]{6}$`));
    const qr = page.getByRole("img", { name: `QR code for ${shortUrl}` });
    await qr.waitFor();
    expect(await qr.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.getByRole("region", { name: "Your short link" }).getByRole("button", { name: "Copy", exact: true }).click();
    await page.getByText("Copied", { exact: true }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(shortUrl);
    await screenshot(page, "shortened");

    const visitor = await context.newPage();
    await visitor.goto(shortUrl);
    expect(visitor.url()).toBe(landing);
    expect(await visitor.getByRole("heading").textContent()).toBe("Landed");
    expect(target.hits).toContain("/landing?from=browser-test");
    await visitor.close();

    await page.getByRole("link", { name: "My links", exact: true }).click();
    const item = page.getByRole("row", { name: shortUrl });
    await item.waitFor();
    expect(await item.getByTestId("clicks").textContent()).toBe("1");
    expect(await item.getByTestId("status").allTextContents()).toEqual(["Active"]);
    await screenshot(page, "my-links");

    await item.getByRole("link", { name: code(shortUrl), exact: true }).click();
    await page.getByRole("heading", { name: shortUrl }).waitFor();
    expect(await page.getByTestId("clicks").textContent()).toBe("1");
    await page.getByRole("link", { name: "← My links" }).click();

    const remove = page.getByRole("row", { name: shortUrl }).getByRole("button", { name: `Delete ${code(shortUrl)}`, exact: true });
    await remove.click();
    const dialog = page.getByRole("dialog", { name: "Delete this link?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByRole("row", { name: shortUrl }).count()).toBe(1);
    await remove.click();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("row", { name: shortUrl }).waitFor({ state: "detached" });
    expect((await fetch(`${shortUrl}/stats`)).status).toBe(404);
    await context.close();
  });

  it("shows the API's message beside the field it concerns", async () => {
    const { context, page } = await openApp();
    await page.getByLabel("Email", { exact: true }).fill("not-an-email");
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.locator("#field-email-error").waitFor();
    // Encore's body error names the field first ("email: value is not an email at line 1 column N"); the page shows the reason.
    expect(await fieldError(page, "Email")).toBe("value is not an email");

    await signUp(page);
    await page.getByLabel("Long URL", { exact: true }).fill("not a url");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    await page.locator("#field-url-error").waitFor();
    expect(await fieldError(page, "Long URL")).toBe("The long URL is not a valid URL.");
    await page.getByLabel("Long URL", { exact: true }).fill("ftp://example.com/file");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    await page.getByText(/^The long URL scheme "ftp:" is not allowed/).waitFor();
    await screenshot(page, "url-error");
    await context.close();
  });

  it("keeps the session across a reload, ends it on log out, and when it ended elsewhere", async () => {
    const { context, page } = await openApp();
    const email = await signUp(page);
    await page.reload();
    // The header's account button shows the email and opens the menu with Log out.
    await page.getByRole("button", { name: email, exact: true }).click();
    expect(await page.getByRole("group", { name: "Account" }).getByText(email, { exact: true }).count()).toBe(1);

    await page.getByRole("button", { name: "Log out", exact: true }).click();
    await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
    expect(await page.evaluate('localStorage.getItem("shortener.session")')).toBeNull();

    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.getByRole("heading", { name: "Shorten a link" }).waitFor();

    // A session ended elsewhere (here through the API): the next call answers 401, renewing fails, and the page forgets it.
    const session = JSON.parse((await page.evaluate('localStorage.getItem("shortener.session")')) as string) as { refreshToken: string };
    const ended = await fetch(`${app.baseUrl}/auth/logout`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refreshToken: session.refreshToken }),
    });
    expect(ended.status).toBe(200);
    // Going to My links calls the API at once (a reload after that would forget why the session ended).
    await page.goto(app.baseUrl + "/#/links");
    await page.getByText("Your session has ended. Log in again.").waitFor();
    expect(await page.evaluate('localStorage.getItem("shortener.session")')).toBeNull();
    await context.close();
  });

  it("works by keyboard alone", async () => {
    const { context, page } = await openApp();
    const email = `keys-${process.pid}-${Date.now()}@example.com`;
    // Each page focuses its heading, so Tab starts from the form.
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.type(email);
    await page.keyboard.press("Tab");
    await page.keyboard.type("correct horse battery");
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement.textContent")).toBe("Sign up");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.type(`${target.origin}/by-keyboard`);
    await page.keyboard.press("Enter");
    await page.getByRole("region", { name: "Your short link" }).waitFor();
    await context.close();
  });

  it("fits a phone-sized screen, in dark mode too", async () => {
    const { context, page } = await openApp({ width: 360, height: 740, dark: true });
    await signUp(page);
    await shorten(page, `${target.origin}/narrow`);
    const fits = () => page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth");
    expect(await fits()).toBe(true);
    const background = await page.evaluate("getComputedStyle(document.body).backgroundColor");
    expect(background).toBe("rgb(17, 20, 24)");
    await screenshot(page, "phone-dark");
    await page.getByRole("link", { name: "My links", exact: true }).click();
    await page.locator("tr.link").first().waitFor();
    expect(await fits()).toBe(true);
    await screenshot(page, "phone-dark-links");
    await context.close();
  });

  it("charts the account's links created per day on the analytics page", async () => {
    const { context, page } = await openApp();
    await signUp(page);
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.getByRole("heading", { name: "Analytics" }).waitFor();
    const chart = page.getByRole("img", { name: /^Links created per day, chart of 30 days/ });
    await chart.waitFor();
    expect(await chart.locator("canvas").count()).toBe(1);
    await screenshot(page, "analytics");
    await context.close();
  });

  /** Visits `shortUrl` as someone in `country` (the CDN's header) with a browser, through the QR code or with a campaign. */
  async function visitAs(shortUrl: string, visits: { country: string; ua: string; address: string; query?: string }[]): Promise<void> {
    for (const v of visits) {
      const resp = await fetch(`${shortUrl}${v.query ?? ""}`, {
        redirect: "manual",
        headers: { "CF-IPCountry": v.country, "User-Agent": v.ua, "X-Forwarded-For": v.address, Accept: "text/html" },
      });
      expect(resp.status).toBe(302);
    }
  }

  const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

  it("shows a link's clicks by day, country, browser, source and campaign over a chosen range, and downloads them as CSV", async () => {
    const { context, page } = await openApp({ width: 1280, height: 900 });
    await signUp(page);
    const shortUrl = await shorten(page, `${target.origin}/analytics`);
    const code = shortUrl.split("/").pop()!;

    // Before any click: the empty state says what will appear.
    await page.goto(`${app.baseUrl}/#/links/${code}`);
    await page.getByRole("heading", { name: /^No clicks from / }).waitFor();
    await screenshot(page, "link-analytics-empty-1280");

    await visitAs(shortUrl, [
      ...Array.from({ length: 6 }, (_, i) => ({ country: "DE", ua: CHROME, address: `198.51.100.${i % 3}` })),
      ...Array.from({ length: 4 }, (_, i) => ({ country: "FR", ua: IPHONE, address: "198.51.100.9", query: i < 3 ? "?qr=1" : "" })),
      { country: "US", ua: CHROME, address: "203.0.113.5", query: "?utm_source=newsletter&utm_medium=email&utm_campaign=launch" },
      { country: "JP", ua: IPHONE, address: "203.0.113.6", query: "?utm_source=newsletter&utm_medium=email&utm_campaign=launch" },
    ]);
    await page.getByRole("button", { name: "7 days" }).click();
    const totals = page.getByLabel(/^Totals, /).getByRole("definition");
    await page.getByText("Unique visitors", { exact: true }).first().waitFor();
    expect(await totals.allTextContents()).toEqual(["12", "6", "3"]);
    await page.getByRole("img", { name: /^Clicks per day, chart of 7 days: clicks: 12, unique visitors: 6/ }).waitFor();
    const countries = page.getByRole("region", { name: "Countries" }).locator("tbody").getByRole("row");
    expect(await countries.first().textContent()).toMatch(/^Germany \(DE\)650%$/);
    expect(
      await page
        .getByRole("region", { name: "Sources" })
        .getByRole("row", { name: /QR code scan/ })
        .textContent(),
    ).toMatch(/QR code scan325%/);
    expect(await page.getByRole("region", { name: "Campaigns" }).getByText("newsletter / email / launch").count()).toBe(1);
    expect(await page.getByRole("region", { name: "Browsers" }).getByText("Chrome").count()).toBe(1);
    await screenshot(page, "link-analytics-1280");

    // Any two days: from a week ago to yesterday holds none of today's clicks.
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From (UTC)").fill(day(7));
    await page.getByLabel("To (UTC)").fill(day(1));
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.getByRole("heading", { name: /^No clicks from / }).waitFor();
    await page.getByRole("button", { name: "30 days" }).click();
    await page.getByRole("img", { name: /^Clicks per day, chart of 30 days/ }).waitFor();

    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(csv.suggestedFilename()).toBe(`${code}-clicks-${day(29)}-to-${day(0)}.csv`);
    const rows = parse(fs.readFileSync((await csv.path())!, "utf8"), { columns: true }) as {
      dimension: string;
      value: string;
      clicks: string;
    }[];
    const countryRows = rows.filter((r) => r.dimension === "country").map((r) => [r.value, Number(r.clicks)]);
    expect(Object.fromEntries(countryRows)).toEqual({ DE: 6, FR: 4, JP: 1, US: 1 });

    // The account's view: the same clicks over all the user's links, with the link among the top ones.
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.getByRole("heading", { name: "Your links" }).waitFor();
    await page.getByRole("link", { name: `/${code}` }).waitFor();
    await screenshot(page, "account-analytics-1280");

    // A phone: one column, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${app.baseUrl}/#/links/${code}`);
    await page.getByRole("img", { name: /^Clicks per day/ }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(true);
    await screenshot(page, "link-analytics-390");
    await page.getByRole("link", { name: "Analytics", exact: true }).click();
    await page.getByRole("link", { name: `/${code}` }).waitFor();
    expect(await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")).toBe(true);
    await screenshot(page, "account-analytics-390");
    await context.close();
  });
});
