// Debian's Chromium driven by playwright-core (no browser download), and a loopback target site
// for short links to land on. In __tests__ so Encore does not parse it.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium, TARGET_HOST } from "./chromium";

/** Where screenshots go: with the test output, gitignored. */
export const SCREENSHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "test-output");

export { launchChromium, TARGET_HOST };

/** openPage opens a page in a context of its own at `width` (1100) × `height` (700) px in light or dark mode, waiting up to a minute a step. */
export async function openPage(browser: Browser, options: { width?: number; height?: number; dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1100, height: options.height ?? 700 },
    colorScheme: options.dark ? "dark" : "light",
  });
  context.setDefaultTimeout(60_000);
  return context.newPage();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** screenshotPhoneAndDark opens `url` at 390 px and in dark mode, waits for `ready` on each, and saves `<name>-phone` and `<name>-dark`. */
export async function screenshotPhoneAndDark(browser: Browser, url: string, name: string, ready: (page: Page) => Locator): Promise<void> {
  for (const [variant, options] of [
    ["phone", { width: 390 }],
    ["dark", { dark: true }],
  ] as const) {
    const page = await openPage(browser, options);
    await page.goto(url);
    await ready(page).waitFor();
    await screenshot(page, `${name}-${variant}`);
    await page.context().close();
  }
}

/** A page short links can point at, recording the paths it was asked for. */
export interface TargetSite {
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startTargetSite(): Promise<TargetSite> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Target</title><h1>Landed</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${TARGET_HOST}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A browser and a target site for one describe block (see useBrowser). */
export interface BrowserFixture {
  /** Chromium; valid inside the block's tests and hooks. */
  readonly browser: Browser;
  /** The loopback site short links land on; valid inside the block's tests and hooks. */
  readonly target: TargetSite;
}

/**
 * useBrowser launches Chromium and starts a target site before the enclosing describe block's tests
 * and closes both after them, so a page test holds no set-up or tear-down of its own.
 */
export function useBrowser(): BrowserFixture {
  let running: { browser: Browser; target: TargetSite } | null = null;
  beforeAll(async () => {
    const [browser, target] = await Promise.all([launchChromium(), startTargetSite()]);
    running = { browser, target };
  });
  afterAll(async () => {
    await running?.browser.close();
    await running?.target.close();
    running = null;
  });
  const started = () => {
    if (running === null) throw new Error("useBrowser: Chromium runs only inside the describe block's tests and hooks");
    return running;
  };
  return {
    get browser() {
      return started().browser;
    },
    get target() {
      return started().target;
    },
  };
}

/** submitAccountForm fills the app's account form with `email` and the test password, presses `button` and waits until signed in. */
export async function submitAccountForm(page: Page, email: string, button: "Sign up" | "Log in" = "Sign up"): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByRole("button", { name: button, exact: true }).click();
  await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
}

/**
 * signedInPage opens the app at `baseUrl` in a fresh browser profile `width` (1100) × 900 px, with the
 * clipboard allowed, and signs up as `email` on the sign-up screen (or, with button "Log in", logs in on the log-in screen).
 */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  email: string,
  options: { width?: number; button?: "Sign up" | "Log in" } = {},
): Promise<Page> {
  const page = await openPage(browser, { width: options.width, height: 900 });
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  await page.goto(baseUrl + (options.button === "Log in" ? "/#/login" : "/#/signup"));
  await submitAccountForm(page, email, options.button);
  return page;
}
