// Every page of the web app in Chromium at 1280 and 390 pixels, light and dark: each names itself in
// the title, the header keeps one row of pages with the account's email beside it (Log out in its
// menu), nothing is wider than the screen, and the charts draw their grid in the theme's colour.
// The Analytics page shows the chosen workspace's own figures; the instance's only to site admins.
// Page-side code is passed as strings: the app's tsconfig has no DOM types. Screenshots: web/test-output/.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeLocal, startTestServer, type TestServer } from "../local/testing";
import { screenshot, useBrowser } from "./__tests__/browser";

vi.setConfig({ testTimeout: 240_000 });

const stamp = (Date.now() * 100 + (process.pid % 100)).toString(36);
const PASSWORD = "correct horse battery";

/** What the test reads of a canvas element (the app's tsconfig has no DOM types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } };
}

describeLocal("every page of the web app in Chromium", () => {
  let server: TestServer;
  const chromium = useBrowser();
  const savedAdmins = process.env.ADMIN_EMAILS;
  const ana = `ana-${stamp}@acme.example`;
  const ben = `ben-${stamp}@acme.example`;
  let anaToken: string;
  let benToken: string;
  let teamId: string;
  let code: string;

  async function api<T>(method: string, path: string, token?: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const resp = await fetch(server.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await resp.text();
    expect(resp.ok, `${method} ${path}: ${text}`).toBe(true);
    return (text === "" ? null : JSON.parse(text)) as T;
  }

  /** A browser as a link's visitor: redirected, so counted. */
  async function visit(shortCode: string, times: number, query = ""): Promise<void> {
    for (let i = 0; i < times; i++) {
      const resp = await fetch(`${server.baseUrl}/${shortCode}${query}`, { redirect: "manual", headers: { Accept: "text/html" } });
      expect(resp.status).toBe(302);
    }
  }

  beforeAll(async () => {
    server = await startTestServer();
    for (const email of [ana, ben]) await api("POST", "/auth/signup", undefined, { email, password: PASSWORD });
    anaToken = (await api<{ token: string }>("POST", "/auth/login", undefined, { email: ana, password: PASSWORD })).token;
    benToken = (await api<{ token: string }>("POST", "/auth/login", undefined, { email: ben, password: PASSWORD })).token;
    // Ana: three personal links (7 clicks), and a team workspace with one link (2 clicks). Ben: one link (5 clicks).
    const personal: string[] = [];
    for (const path of ["pricing", "blog/launch", "careers"])
      personal.push((await api<{ code: string }>("POST", "/shorten", anaToken, { url: `https://acme.example/${path}` })).code);
    code = personal[0];
    await visit(personal[0], 4);
    await visit(personal[1], 3, "?qr=1");
    teamId = (await api<{ id: string }>("POST", "/workspaces", anaToken, { name: "Acme Marketing" })).id;
    const team = await api<{ code: string }>("POST", "/shorten", anaToken, {
      url: "https://acme.example/spring-sale",
      workspaceId: teamId,
    });
    await visit(team.code, 2);
    const bens = await api<{ code: string }>("POST", "/shorten", benToken, { url: "https://acme.example/ben" });
    await visit(bens.code, 5);
  }, 240_000);

  afterAll(async () => {
    if (savedAdmins === undefined) delete process.env.ADMIN_EMAILS;
    else process.env.ADMIN_EMAILS = savedAdmins;
    await server?.close();
  });

  /** A fresh profile at `width`, signed in as `email` through the log-in form, or signed out. */
  async function open(width: number, options: { email?: string; dark?: boolean } = {}): Promise<Page> {
    const context = await chromium.browser.newContext({ viewport: { width, height: 900 }, colorScheme: options.dark ? "dark" : "light" });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await page.goto(server.baseUrl + (options.email ? "/#/login" : "/"));
    if (options.email) {
      await page.getByLabel("Email", { exact: true }).fill(options.email);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
    }
    return page;
  }

  const fits = (page: Page) => page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth");

  /** The elements that reach past the screen's right edge, for the failure message. */
  const overflowing = (page: Page) =>
    page.evaluate(
      `[...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((e) => e.tagName + "." + e.className).slice(0, 8).join(" ")`,
    );

  /** The top of each element of `selector` in the header, rounded to whole pixels. */
  const tops = (page: Page, selector: string) =>
    page.evaluate(
      `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => Math.round(e.getBoundingClientRect().top))`,
    ) as Promise<number[]>;

  /** Every page a signed-in person reaches, with the title it must have and its heading. */
  const PAGES = () => [
    { name: "shorten", hash: "#/", title: "Shorten a link · Shortener", heading: "Shorten a link", ready: "Long URL" },
    { name: "links", hash: "#/links", title: "My links · Shortener", heading: "My links", ready: "https://acme.example/careers" },
    { name: "details", hash: `#/links/${code}`, title: `${code} · Shortener`, heading: /\//, ready: "Countries" },
    { name: "edit", hash: `#/links/${code}/edit`, title: `Edit ${code} · Shortener`, heading: `Edit ${code}`, ready: "Save changes" },
    { name: "analytics", hash: "#/analytics", title: "Analytics · Shortener", heading: "Analytics", ready: "Top links" },
    { name: "team", hash: "#/team", title: "Team · Shortener", heading: "Team", ready: "Audit log" },
    { name: "webhooks", hash: "#/webhooks", title: "Webhooks · Shortener", heading: "Webhooks", ready: "Events" },
    { name: "admin", hash: "#/admin", title: "Admin · Shortener", heading: "Admin", ready: "Blocklist" },
    { name: "account", hash: "#/account", title: "Account · Shortener", heading: "Account", ready: "Change password" },
  ];

  for (const width of [1280, 390]) {
    it(`names every page in its title and keeps the header on one row with the email at ${width} px`, async () => {
      process.env.ADMIN_EMAILS = ana;
      const page = await open(width, { email: ana });
      for (const p of PAGES()) {
        await page.goto(`${server.baseUrl}/${p.hash}`);
        await page.getByRole("heading", { name: p.heading, level: 1 }).first().waitFor();
        await expect.poll(() => page.title()).toBe(p.title);
        // Let the page's data arrive before judging its width and taking its picture.
        await page.getByText(p.ready, { exact: true }).first().waitFor();
        await page.waitForLoadState("networkidle");
        await screenshot(page, `page-${p.name}-${width}`);
        expect(await fits(page), `${p.name} fits ${width} px: ${await overflowing(page)}`).toBe(true);
        const account = page.getByRole("button", { name: ana });
        expect(await account.isVisible()).toBe(true);
        // The nav's links are one row, and the brand and the account share the first.
        const links = await tops(page, "header nav a");
        expect(new Set(links).size, `${p.name}: nav links on one row (${links})`).toBe(1);
        const [brand, button] = [await tops(page, "header .brand"), await tops(page, "header .account-button")];
        expect(Math.abs(brand[0] - button[0]), `${p.name}: brand and account on one row`).toBeLessThan(12);
      }
      // The account menu: the whole email and Log out, inside the screen; Escape closes it.
      await page.getByRole("button", { name: ana }).click();
      await page.getByRole("group", { name: "Account" }).getByText(ana, { exact: true }).waitFor();
      const logOut = page.getByRole("button", { name: "Log out", exact: true });
      const box = (await logOut.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= width).toBe(true);
      await screenshot(page, `page-account-menu-${width}`);
      await page.keyboard.press("Escape");
      await logOut.waitFor({ state: "detached" });
      await page.getByRole("button", { name: ana }).click();
      await logOut.click();
      await page.getByRole("button", { name: "Log in", exact: true }).waitFor();
      await expect.poll(() => page.title()).toBe("Log in · Shortener");
      expect(await fits(page)).toBe(true);
      await screenshot(page, `page-log-in-${width}`);
      await page.goto(`${server.baseUrl}/#/signup`);
      await expect.poll(() => page.title()).toBe("Create your account · Shortener");
      expect(await fits(page)).toBe(true);
      await screenshot(page, `page-sign-up-${width}`);
      await page.goto(`${server.baseUrl}/#/analytics`);
      await page.getByText("to see how often your links are opened").waitFor();
      expect(await page.getByRole("link", { name: "Log in", exact: true }).getAttribute("href")).toBe("#/login");
      expect(await page.getByRole("link", { name: "create an account" }).getAttribute("href")).toBe("#/signup");
      expect(await page.getByRole("definition").count()).toBe(0);
      await screenshot(page, `page-analytics-signed-out-${width}`);
      await page.context().close();
    });
  }

  it("shows the chosen workspace's own figures, and the instance's only to site admins, labelled as such", async () => {
    process.env.ADMIN_EMAILS = `someone-else-${stamp}@acme.example`;
    const page = await open(1280, { email: ana });
    await page.goto(`${server.baseUrl}/#/analytics`);
    await page.getByRole("heading", { name: "Your links" }).waitFor();
    const totals = page.getByRole("definition");
    await page.getByRole("img", { name: /^Clicks per day, chart of 30 days: clicks: 7,/ }).waitFor();
    expect(await totals.allTextContents()).toEqual(["7", "0", "3"]);
    await page.getByRole("img", { name: /^Links created per day, chart of 30 days: links created: 3$/ }).waitFor();
    const top = page.getByRole("region", { name: "Top links" });
    expect(await top.getByRole("row").allTextContents()).toEqual([
      "LinkClicksUnique visitors",
      `/${code}40`,
      expect.stringMatching(/^\/\w+30$/),
    ]);
    expect(await page.getByRole("heading", { name: "Whole instance" }).count()).toBe(0);

    await page.getByLabel("Workspace").selectOption(teamId);
    await page.getByRole("heading", { name: "Acme Marketing's links" }).waitFor();
    await page.getByRole("img", { name: /^Clicks per day, chart of 30 days: clicks: 2,/ }).waitFor();
    await page.getByRole("img", { name: /^Links created per day, chart of 30 days: links created: 1$/ }).waitFor();
    await screenshot(page, "analytics-team-1280");

    // Ben is no member of Ana's team: the API answers its figures as it answers a missing workspace.
    for (const path of ["/analytics/clicks", "/analytics/links-created"]) {
      const resp = await fetch(`${server.baseUrl}${path}?workspaceId=${teamId}`, { headers: { Authorization: `Bearer ${benToken}` } });
      expect({ status: resp.status, code: ((await resp.json()) as { code: string }).code }).toEqual({ status: 404, code: "not_found" });
    }
    await page.context().close();

    // A site admin also sees the instance, under a heading and a sentence that say whose figures they are.
    process.env.ADMIN_EMAILS = ana;
    const admin = await open(1280, { email: ana });
    await admin.goto(`${server.baseUrl}/#/analytics`);
    const instance = admin.getByRole("region", { name: "Whole instance" });
    await instance.getByText("Every account's links together, not only yours. Only site admins see this section.").waitFor();
    await instance.getByRole("img", { name: /^Links created per day, whole instance/ }).waitFor();
    await screenshot(admin, "analytics-site-admin-1280");
    await admin.context().close();
  });

  it("draws the charts' grid in the theme's line colour, in light and dark mode", async () => {
    process.env.ADMIN_EMAILS = `someone-else-${stamp}@acme.example`;
    for (const dark of [false, true]) {
      const page = await open(390, { email: ana, dark });
      await page.goto(`${server.baseUrl}/#/analytics`);
      const chart = page.getByRole("img", { name: /^Clicks per day/ });
      await chart.locator("canvas").waitFor();
      // Without the Admin link, every page's link fits the phone's nav row: nothing to scroll to.
      const nav = (await page.evaluate(
        `(() => { const nav = document.querySelector("header nav"); return [nav.scrollWidth, nav.clientWidth]; })()`,
      )) as number[];
      expect(nav[0], `nav content ${nav[0]} px in ${nav[1]} px`).toBeLessThanOrEqual(nav[1]);
      // The colours the canvas holds, counted: the grid's must be the theme's --line, and nothing near white in dark mode.
      const colours = await chart.locator("canvas").evaluate((canvas: Canvas) => {
        const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
        const counts: Record<string, number> = {};
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] < 255) continue;
          const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
          counts[key] = (counts[key] ?? 0) + 1;
        }
        return counts;
      });
      const line = dark ? "51,59,69" : "217,221,227";
      expect(colours[line] ?? 0, `grid pixels in ${line}`).toBeGreaterThan(100);
      if (dark) {
        const bright = Object.entries(colours).filter(([rgb]) => rgb.split(",").every((c) => Number(c) > 200));
        expect(
          bright.reduce((n, [, count]) => n + count, 0),
          "near-white pixels on the dark chart",
        ).toBeLessThan(50);
      }
      await screenshot(page, `analytics-chart-${dark ? "dark" : "light"}-390`);
      await page.context().close();
    }
  });
});
