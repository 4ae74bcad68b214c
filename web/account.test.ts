// Accounts and sessions in the web app, in Chromium: the sign-up screen signs up on Enter, the two
// screens link to each other, a changed password signs the other browser out and is the one that logs
// in, a session outlives its access token (renewed ahead of expiry, after a 401, and by two tabs at
// once without tripping reuse detection), and log out ends the session for the API too. Screenshots
// of each screen at 1280 and 390 pixels go to web/test-output/.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeLocal, startTestServer, type TestServer } from "../local/testing";
import { launchChromium, screenshot } from "./__tests__/browser";

const STEP_MS = 60_000;
vi.setConfig({ testTimeout: 4 * STEP_MS });

const password = "correct horse battery";
let accounts = 0;
const freshEmail = () => `account-${process.pid}-${Date.now()}-${++accounts}@example.com`;

/** Page-side code is passed as strings: the app's tsconfig has no DOM types. */
interface StoredSession {
  token: string;
  expiresAt: string;
  refreshToken: string;
  refreshExpiresAt: string;
}

describeLocal("accounts and sessions in the web app (Chromium)", () => {
  let server: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openApp(width = 1280, hash = ""): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    context.setDefaultTimeout(STEP_MS);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/${hash}`);
    return { context, page };
  }

  async function stored(page: Page): Promise<StoredSession> {
    return JSON.parse((await page.evaluate('localStorage.getItem("shortener.session")')) as string) as StoredSession;
  }

  const api = (path: string, init: { token?: string; body?: unknown } = {}) =>
    fetch(server.baseUrl + path, {
      method: init.body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json", ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  async function signUp(page: Page, email: string): Promise<void> {
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Password", { exact: true }).press("Enter");
    await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
  }

  async function logIn(page: Page, email: string, pw: string): Promise<void> {
    await page.getByRole("heading", { name: "Log in" }).waitFor();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(pw);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
  }

  describe("the sign-up and log-in screens", () => {
    it("signs a new visitor up with Enter, and each screen links to the other", async () => {
      for (const width of [1280, 390]) {
        const { context, page } = await openApp(width);
        await page.getByRole("heading", { name: "Create your account" }).waitFor();
        expect(await page.getByRole("button", { name: "Log in" }).count()).toBe(0);
        await screenshot(page, `signup-${width}`);
        await page.getByRole("link", { name: "Log in" }).click();
        await page.getByRole("heading", { name: "Log in" }).waitFor();
        expect(await page.getByLabel("Stay signed in").isChecked()).toBe(true);
        await screenshot(page, `login-${width}`);
        await page.getByRole("link", { name: "Create an account" }).click();

        // An existing email is refused beside the field; Enter on this screen never logs in.
        const email = freshEmail();
        await signUp(page, email);
        const fits = await page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth");
        expect(fits).toBe(true);
        await context.close();

        const again = await openApp(width, "#/signup");
        await again.page.getByLabel("Email", { exact: true }).fill(email);
        await again.page.getByLabel("Password", { exact: true }).fill(password);
        await again.page.getByLabel("Password", { exact: true }).press("Enter");
        await again.page.locator("#field-email-error").waitFor();
        expect(await again.page.locator("#field-email-error").textContent()).toBe("email already registered");
        await screenshot(again.page, `signup-taken-${width}`);
        await again.context.close();
      }
    });

    it("offers log in to a returning visitor and keeps a session without 'stay signed in' to its tab", async () => {
      const { context, page } = await openApp(1280);
      const email = freshEmail();
      await signUp(page, email);
      await page.getByRole("button", { name: email }).click();
      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("heading", { name: "Log in" }).waitFor();
      await page.goto(`${server.baseUrl}/#/`);
      await page.getByRole("heading", { name: "Log in" }).waitFor();

      await page.getByLabel("Stay signed in").uncheck();
      await logIn(page, email, password);
      await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
      expect(await page.evaluate('localStorage.getItem("shortener.session")')).toBeNull();
      const tabOnly = JSON.parse((await page.evaluate('sessionStorage.getItem("shortener.session")')) as string) as StoredSession;
      // The server ends such a session after 12 hours unused.
      expect(Date.parse(tabOnly.refreshExpiresAt) - Date.now()).toBeLessThanOrEqual(12 * 3600_000 + 5_000);
      const otherTab = await context.newPage();
      await otherTab.goto(`${server.baseUrl}/#/links`);
      await otherTab.getByRole("heading", { name: "Log in" }).waitFor();
      await context.close();
    });
  });

  describe("change password", () => {
    it("signs the other browser out, says so, and the new password is the one that logs in", async () => {
      const email = freshEmail();
      const laptop = await openApp(1280);
      await signUp(laptop.page, email);
      const phone = await openApp(390, "#/login");
      await logIn(phone.page, email, password);
      await phone.page.getByRole("heading", { name: "Shorten a link" }).waitFor();

      await laptop.page.getByRole("button", { name: email }).click();
      await laptop.page.getByRole("link", { name: "Account and password" }).click();
      await laptop.page.getByRole("heading", { name: "Account" }).waitFor();
      await screenshot(laptop.page, "account-1280");
      await laptop.page.getByLabel("Current password").fill("not my password");
      await laptop.page.getByLabel("New password").fill("short");
      await laptop.page.getByRole("button", { name: "Change password" }).click();
      await laptop.page.locator("#field-newPassword-error").waitFor();
      expect(await laptop.page.locator("#field-newPassword-error").textContent()).toBe("Use at least 8 characters.");
      await laptop.page.getByLabel("New password").fill("a better password");
      await laptop.page.getByRole("button", { name: "Change password" }).click();
      await laptop.page.getByText("That is not your current password.").waitFor();
      await screenshot(laptop.page, "account-error-1280");

      await laptop.page.getByLabel("Current password").fill(password);
      await laptop.page.getByRole("button", { name: "Change password" }).click();
      await laptop.page.getByText("Password changed. You were signed out of 1 other session; this one stays signed in.").waitFor();
      await screenshot(laptop.page, "account-changed-1280");

      // The phone's session has ended: its next call is refused, and it says so on the log-in screen.
      await phone.page.getByRole("link", { name: "My links", exact: true }).click();
      await phone.page.getByText("Your session has ended. Log in again.").waitFor();
      await logIn(phone.page, email, password);
      await phone.page.locator("#field-password-error").waitFor();
      expect(await phone.page.locator("#field-password-error").textContent()).toBe("invalid email or password");
      await logIn(phone.page, email, "a better password");
      await phone.page.getByRole("heading", { name: "My links" }).waitFor();
      await phone.page.goto(`${server.baseUrl}/#/account`);
      await phone.page.getByRole("heading", { name: "Account" }).waitFor();
      const fits = await phone.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth");
      expect(fits).toBe(true);
      await screenshot(phone.page, "account-390");

      // The laptop, which changed it, is still signed in.
      await laptop.page.getByRole("link", { name: "My links", exact: true }).click();
      await laptop.page.getByRole("heading", { name: "My links" }).waitFor();
      await laptop.context.close();
      await phone.context.close();
    });
  });

  describe("sessions that last", () => {
    it("stays signed in across an access-token expiry, which the API really enforces", async () => {
      vi.stubEnv("ACCESS_TOKEN_TTL_SECONDS", "2");
      try {
        const { context, page } = await openApp(1280);
        const refreshes: string[] = [];
        context.on("request", (r) => void (r.url().endsWith("/auth/refresh") && refreshes.push(r.url())));
        await signUp(page, freshEmail());
        const first = await stored(page);
        await expect.poll(async () => (await api("/auth/me", { token: first.token })).status, { timeout: 10_000 }).toBe(401);
        const refused = await (await api("/auth/me", { token: first.token })).json();
        expect(refused).toMatchObject({ code: "unauthenticated", message: "token expired" });

        // Ahead of expiry: the page renews before it calls.
        await page.getByRole("link", { name: "My links", exact: true }).click();
        await page.getByRole("heading", { name: "My links" }).waitFor();
        await expect.poll(async () => (await stored(page)).refreshToken, { timeout: STEP_MS }).not.toBe(first.refreshToken);
        expect(refreshes.length).toBeGreaterThanOrEqual(1);
        expect(await page.getByRole("heading", { name: "Log in" }).count()).toBe(0);

        // After a 401: the page believes its (expired) token good, the API refuses it, the page renews and retries.
        vi.stubEnv("ACCESS_TOKEN_TTL_SECONDS", "900");
        await page.evaluate(`{
          const s = JSON.parse(localStorage.getItem("shortener.session"));
          localStorage.setItem("shortener.session", JSON.stringify({ ...s, renewAt: Date.now() + 3600000 }));
        }`);
        await expect.poll(async () => (await api("/auth/me", { token: (await stored(page)).token })).status, { timeout: 10_000 }).toBe(401);
        const before = refreshes.length;
        await page.reload();
        await page.getByRole("heading", { name: "My links" }).waitFor();
        await expect.poll(() => refreshes.length, { timeout: STEP_MS }).toBe(before + 1);
        // The renewed token is stored once its answer is in: then the API takes it.
        await expect
          .poll(async () => (await api("/auth/me", { token: (await stored(page)).token })).status, { timeout: STEP_MS })
          .toBe(200);
        await context.close();
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it("lets two tabs renew at once without ending the session (one at a time, the other adopting its tokens)", async () => {
      vi.stubEnv("ACCESS_TOKEN_TTL_SECONDS", "6");
      try {
        const { context, page } = await openApp(1280);
        await signUp(page, freshEmail());
        const second = await context.newPage();
        await second.goto(`${server.baseUrl}/#/links`);
        await second.getByRole("heading", { name: "My links" }).waitFor();
        const expiresAt = Date.parse((await stored(page)).expiresAt);
        await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now()) + 500));
        // Each refresh is held back two seconds on its way, so both tabs want one while the first is in flight.
        let sent = 0;
        await context.route("**/auth/refresh", async (route) => {
          sent++;
          await new Promise((r) => setTimeout(r, 2000));
          await route.continue();
        });
        const refreshes: number[] = [];
        context.on("response", (r) => void (r.url().endsWith("/auth/refresh") && refreshes.push(r.status())));
        await Promise.all([page.goto(`${server.baseUrl}/#/links`), second.reload()]);
        await Promise.all([page, second].map((p) => p.getByRole("heading", { name: "My links" }).waitFor()));
        // Had the tabs both sent the one refresh token, the server would have answered 401 and ended the session.
        await expect.poll(() => refreshes.length > 0 && refreshes.length === sent, { timeout: STEP_MS }).toBe(true);
        expect(refreshes).toEqual(refreshes.map(() => 200));
        expect(await page.getByRole("heading", { name: "Log in" }).count()).toBe(0);
        expect(await second.getByRole("heading", { name: "Log in" }).count()).toBe(0);
        const now = await stored(page);
        expect((await api("/auth/refresh", { body: { refreshToken: now.refreshToken } })).status).toBe(200);
        await context.close();
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it("logs out on the server: the old access and refresh tokens are refused by the API", async () => {
      const { context, page } = await openApp(1280);
      const email = freshEmail();
      await signUp(page, email);
      const session = await stored(page);
      expect((await api("/auth/me", { token: session.token })).status).toBe(200);
      await page.getByRole("button", { name: email }).click();
      await page.getByRole("button", { name: "Log out" }).click();
      await page.getByRole("heading", { name: "Log in" }).waitFor();
      expect(await page.evaluate('localStorage.getItem("shortener.session")')).toBeNull();
      const me = await api("/auth/me", { token: session.token });
      expect(me.status).toBe(401);
      expect(await me.json()).toMatchObject({ code: "unauthenticated", message: "session has ended" });
      expect((await api("/auth/refresh", { body: { refreshToken: session.refreshToken } })).status).toBe(401);
      await screenshot(page, "logged-out-1280");
      await context.close();
    });
  });
});
