// The dashboard in a real browser (Debian's Chromium through playwright-core): call POST /shorten
// from the API explorer, open its trace and find the INSERT, the publish and the linked delivery
// with its own SQL; failed calls show their error; the catalog and the flow show the whole app.
// Screenshots go to .local/screenshots/.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read untyped */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import { startTestServer, type TestServer } from "../testing";
import { signUp } from "../../url/__tests__/helpers";
import { appRoot as appRootDir } from "../layout.mjs";
import { loadAppModel } from "../appmodel/cache";
import { startDashboard, type Dashboard } from "./server";

const CHROMIUM = "/usr/bin/chromium";
const shots = path.join(appRootDir, ".local", "screenshots");

describe("dashboard in the browser", () => {
  let app: TestServer;
  let dash: Dashboard;
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)`);
    fs.mkdirSync(shots, { recursive: true });
    app = await startTestServer();
    dash = await startDashboard(0);
    token = await signUp(app.baseUrl);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await page.goto(dash.url);
    await page.getByTestId("app-status").waitFor();
    expect(problems).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await dash?.close();
    await app?.close();
  });

  /** Calls url.shorten from the explorer with `body` and `bearer`, and returns the status shown. */
  async function callShorten(body: string, bearer: string): Promise<string> {
    await page.goto(`${dash.url}/#/explorer/url.shorten`);
    await page.getByTestId("path").waitFor();
    expect(await page.getByTestId("path").inputValue()).toBe("/shorten");
    await page.getByTestId("token").fill(bearer);
    await page.getByTestId("body").fill(body);
    await page.getByTestId("send").click();
    return (await page.getByTestId("status").textContent())!;
  }

  const row = (text: string | RegExp) => page.getByTestId("row").filter({ hasText: text });

  it("calls POST /shorten from the explorer and shows its trace: SQL, upload, publish and the delivery's own SQL", async () => {
    expect(await callShorten('{"url": "https://example.com/from-the-browser"}', token)).toBe("200");
    expect(await page.getByTestId("response").textContent()).toContain('"shortUrl"');
    await page.getByTestId("trace-link").click();

    await row("INSERT INTO urls").waitFor();
    await row(/bucket upload qr-codes\/[0-9a-z]{6}\.png/).waitFor();
    await row("publish url-shortened").waitFor();
    await row("auth auth.auth").waitFor();
    // The delivery is a trace of its own, linked under the publish; its rows appear once it ran.
    await row("track-analytics ← url-shortened (attempt 1)").waitFor();
    await row("INSERT INTO counted_urls").waitFor();
    await row("INSERT INTO daily_stats").waitFor();
    const labels = await page.getByTestId("row").locator(".label").allTextContents();
    const delivery = labels.findIndex((l) => l.startsWith("track-analytics"));
    expect(labels.findIndex((l) => l.includes("publish url-shortened"))).toBeLessThan(delivery);
    expect(labels.findIndex((l) => l.includes("INSERT INTO counted_urls"))).toBeGreaterThan(delivery);

    await row("INSERT INTO urls").click();
    expect(await page.getByTestId("details").textContent()).toContain("ON CONFLICT (code) DO NOTHING");
    await row("track-analytics").click();
    expect(await page.getByTestId("details").getByTestId("payload").first().textContent()).toContain(
      "https://example.com/from-the-browser",
    );
    await row("url.shorten").first().click();
    await page.screenshot({ path: path.join(shots, "trace.png"), fullPage: true });

    await page.goto(`${dash.url}/#/traces`);
    await page.getByTestId("trace-row").filter({ hasText: "url.shorten" }).first().waitFor();
    await page.screenshot({ path: path.join(shots, "traces.png") });
  });

  it("shows the error of a 400 on a bad URL and of a 401 on a bad token in the trace", async () => {
    expect(await callShorten('{"url": "ftp://example.com/"}', token)).toBe("400");
    await page.getByTestId("trace-link").click();
    await page.getByTestId("error").waitFor();
    expect(await page.getByTestId("error").textContent()).toMatch(/^invalid_argument: /);
    expect(await row("url.shorten POST /shorten → 400").count()).toBe(1);

    expect(await callShorten('{"url": "https://example.com/"}', "not-a-token")).toBe("401");
    await page.getByTestId("trace-link").click();
    await page.getByTestId("error").waitFor();
    expect(await page.getByTestId("error").textContent()).toMatch(/^unauthenticated: /);
    await row("auth auth.auth").click();
    expect(await page.getByTestId("error").textContent()).toMatch(/^unauthenticated: /);
    await page.screenshot({ path: path.join(shots, "trace-401.png"), fullPage: true });
  });

  it("lists all three services in the catalog with every endpoint, its method, path and auth flag", async () => {
    await page.goto(`${dash.url}/#/catalog`);
    await page.getByTestId("service").first().waitFor();
    const model = loadAppModel(appRootDir);
    expect(await page.getByTestId("service").evaluateAll((els) => els.map((e) => e.getAttribute("data-service")))).toEqual(
      model.services.map((s) => s.name),
    );
    for (const ep of model.endpoints) {
      const card = page.locator(`[data-endpoint="${ep.service}.${ep.name}"]`);
      expect(await card.locator(".method").textContent(), ep.name).toBe(ep.methods.join(", "));
      expect(await card.getByTestId("endpoint-path").textContent()).toBe(ep.path);
      expect(await card.getByTestId("auth").count()).toBe(ep.auth ? 1 : 0);
    }
    const shorten = page.locator('[data-endpoint="url.shorten"]');
    expect(await shorten.textContent()).toContain("shorten stores `url` under a fresh code");
    expect(await shorten.getByTestId("fields").allTextContents()).toEqual([
      expect.stringContaining("urlstring"),
      expect.stringContaining("qrCodeUrl"),
    ]);
    await page.screenshot({ path: path.join(shots, "catalog.png") });
  });

  it("draws url publishing to url-shortened and analytics subscribing (dashed), and analytics calling url (solid)", async () => {
    await page.goto(`${dash.url}/#/flow`);
    await page.getByTestId("flow").waitFor();
    const edge = (from: string, to: string) => page.locator(`[data-testid="edge"][data-from="${from}"][data-to="${to}"] path`);
    const dash_ = async (from: string, to: string) =>
      edge(from, to).evaluate((p: any) => p.ownerDocument.defaultView.getComputedStyle(p).strokeDasharray);
    expect(await dash_("service:url", "topic:url-shortened")).not.toBe("none");
    expect(await dash_("topic:url-shortened", "service:analytics")).not.toBe("none");
    expect(await dash_("service:analytics", "service:url")).toBe("none");
    for (const id of [
      "service:url",
      "service:analytics",
      "service:auth",
      "topic:url-shortened",
      "database:url",
      "bucket:qr-codes",
      "cron:cleanup-stale-urls",
    ]) {
      expect(await page.locator(`[data-testid="node"][data-id="${id}"]`).count(), id).toBe(1);
    }
    await page.locator('[data-testid="flow"]').screenshot({ path: path.join(shots, "flow.png") });
  });
});
