// The dashboard in a real browser (Debian's Chromium through playwright-core): call POST /shorten
// from the API explorer, open its trace and find the INSERT, the publish and the linked delivery
// with its own SQL; failed calls show their error; the catalog and the flow show the whole app; the
// trace list, migration status, object browser, cron "run now", Pub/Sub queues and click batches
// show what the app did; the explorer's defaults are valid for every endpoint, the trace list filters
// and counts what the waterfall shows, the database explorer reads rows read-only, and no Flow label
// is cut. Screenshots (1280 px wide) go to .local/screenshots/ or SHOTS_DIR.
/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers are read untyped */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chromium, type Browser, type Page } from "playwright-core";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { captureLogs, redeliveryWarning, setRetryBackoffScale, startTestServer, type TestServer } from "../../testing";
import { holdCleanupTurnForThisFile, signUp } from "../../../url/__tests__/helpers";
import { urlShortened } from "../../../url/topic";
import { db as analyticsDb } from "../../../analytics/db";
import { newEvent, privateMidnight } from "../../../analytics/__tests__/helpers";
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { loadAppModel } from "../../compiler/cache";
import { startDashboard, type Dashboard } from "./server";

const CHROMIUM = "/usr/bin/chromium";
/** Screenshots: SHOTS_DIR when set (a reviewer's folder), else .local/screenshots/. */
const shots = process.env.SHOTS_DIR ?? path.join(appRootDir, ".local", "screenshots");

describe("dashboard in the browser", () => {
  // "Run now" runs the cleanup, which deletes every stale link in a shared server database.
  holdCleanupTurnForThisFile();
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
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: dash.url });
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await page.goto(dash.url);
    await page.getByTestId("app-status").waitFor();
    expect(problems).toEqual([]);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await browser?.close();
    await dash?.close();
    await app?.close();
  });

  /** Calls url.shorten from the explorer with `body` and `bearer`, and returns the status shown. */
  async function callShorten(body: string, bearer: string): Promise<string> {
    await page.goto(`${dash.url}/#/explorer/url.shorten`);
    // Waits out a render that has not caught up with the hash yet (the explorer was open in the previous test).
    await page.waitForFunction(`document.querySelector('[data-testid="path"]')?.textContent === "/shorten"`);
    await page.getByTestId("token").fill(bearer);
    await page.getByTestId("body").fill(body);
    await page.getByTestId("send").click();
    return (await page.getByTestId("status").textContent())!;
  }

  const row = (text: string | RegExp) => page.getByTestId("row").filter({ hasText: text });

  /** Shortens `url` over HTTP as a client would; returns the answer and its trace id. */
  async function shortenOverHttp(url: string): Promise<{ code: string; shortUrl: string; traceId: string }> {
    const res = await fetch(`${app.baseUrl}/shorten`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ url }),
    });
    expect(res.status).toBe(200);
    return { ...((await res.json()) as { code: string; shortUrl: string }), traceId: res.headers.get("x-encore-trace-id")! };
  }

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
    // One statement records the link and adds it to its day (analytics/track.ts).
    await row("INSERT INTO counted_urls").waitFor();
    const labels = await page.getByTestId("row").locator(".label").allTextContents();
    const delivery = labels.findIndex((l) => l.startsWith("track-analytics"));
    expect(labels.findIndex((l) => l.includes("publish url-shortened"))).toBeLessThan(delivery);
    expect(labels.findIndex((l) => l.includes("INSERT INTO counted_urls"))).toBeGreaterThan(delivery);

    await row("INSERT INTO urls").click();
    expect(await page.getByTestId("details").textContent()).toContain("ON CONFLICT (code) DO NOTHING");
    await row("INSERT INTO counted_urls").click();
    expect(await page.getByTestId("details").textContent()).toContain("INSERT INTO daily_stats");
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

  it("calls every endpoint with the form's defaults without a 400, and fills path, query and header parameters", async () => {
    // POST /internal/cron/cleanup-stale-urls with the form's empty token: refused, as it must be.
    captureLogs({
      level: "WRN",
      msg: "refused cron trigger for cleanup-stale-urls",
      fields: { reason: /CronTriggerToken is not configured/ },
    });
    await page.goto(`${dash.url}/#/explorer/analytics.daily`);
    await page.waitForFunction(`document.querySelector('[data-testid="path"]')?.textContent === "/analytics/daily"`);
    // The optional `days` is left out, not sent empty (which Encore refuses: invalid number "").
    expect(await page.locator('[data-testid="param"][data-param="days"]').inputValue()).toBe("");
    await page.getByTestId("send").click();
    expect(await page.getByTestId("status").textContent()).toBe("200");
    await page.locator('[data-testid="param"][data-param="days"]').fill("7");
    expect(await page.getByTestId("path").textContent()).toBe("/analytics/daily?days=7");
    await page.getByTestId("send").click();
    await page.getByTestId("status").filter({ hasText: "200" }).waitFor();
    await page.screenshot({ path: path.join(shots, "explorer-query.png"), fullPage: true });

    // A path parameter is a field of its own, filled, never left as ":code" in the path.
    const { code } = await shortenOverHttp("https://example.com/explorer-path");
    await page.goto(`${dash.url}/#/explorer/url.stats`);
    await page.waitForFunction(`document.querySelector('[data-testid="path"]')?.textContent.endsWith("/stats")`);
    expect(await page.getByTestId("path").textContent()).not.toContain(":");
    await page.locator('[data-testid="param"][data-param="code"]').fill(code);
    expect(await page.getByTestId("path").textContent()).toBe(`/${code}/stats`);
    await page.getByTestId("send").click();
    expect(await page.getByTestId("status").textContent()).toBe("200");
    await page.screenshot({ path: path.join(shots, "explorer.png"), fullPage: true });

    // Copy as curl: the same request, runnable in a shell.
    await page.getByTestId("token").fill(token);
    await page.getByTestId("copy-curl").click();
    const curl = `curl -X GET '${app.baseUrl}/${code}/stats' -H 'Authorization: Bearer ${token}'`;
    expect(await page.getByTestId("curl").textContent()).toBe(curl);
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(curl);

    // A body seeded from the schema: the required url, with a value the handler accepts.
    await page.goto(`${dash.url}/#/explorer/url.shorten`);
    await page.waitForFunction(`document.querySelector('[data-testid="path"]')?.textContent === "/shorten"`);
    expect(JSON.parse(await page.getByTestId("body").inputValue())).toEqual({ url: "https://example.com/" });
    await page.getByTestId("token").fill(token);
    await page.getByTestId("send").click();
    expect(await page.getByTestId("status").textContent()).toBe("200");
    await page.screenshot({ path: path.join(shots, "explorer-body.png"), fullPage: true });

    // Every endpoint, every method, called with the form exactly as the explorer opens it (ui/request.js builds both).
    const results: { id: string; method: string; raw: boolean; status: number; body: string }[] = await page.evaluate(`(async (bearer) => {
      const { requestOf } = await import("/ui/request.js");
      const catalog = await (await fetch("/api/catalog")).json();
      const out = [];
      for (const ep of catalog.services.flatMap((s) => s.endpoints).filter((e) => e.expose)) {
        for (const method of ep.methods) {
          const form = ep.forms[method];
          const values = Object.fromEntries(form.params.map((p) => [p.place + ":" + p.name, p.value]));
          const body = form.body === null ? null : JSON.stringify(form.body, null, 2);
          const req = requestOf(ep.path, method, form.params, values, body, bearer);
          const res = await fetch("/api/call", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
          const r = await res.json();
          out.push({ id: ep.id, method, raw: ep.raw, status: r.status, body: r.body });
        }
      }
      return out;
    })(${JSON.stringify(token)})`);
    expect(results.length).toBeGreaterThan(50);
    // 401/403/404 answer who may do what and which object exists; a 400 would be the form's own fault.
    // A raw endpoint's body has no schema (POST /urls/import wants CSV): the form cannot know it.
    const refused = results.filter((r) => [400, 405, 415, 422].includes(r.status) && !(r.raw && r.method === "POST"));
    expect(results.filter((r) => r.raw && r.method === "POST").map((r) => r.id)).toEqual(["url.importUrls"]);
    expect(refused).toEqual([]);
    expect(results.find((r) => r.id === "analytics.daily")!.status).toBe(200);
    expect(results.find((r) => r.id === "url.shorten")!.status).toBe(200);

    // The sweep made a webhook at the form's example URL: removed, so later tests' links are not posted
    // to a host that does not resolve (a deleted webhook's queued events are dropped).
    const auth = { Authorization: `Bearer ${token}` };
    const { webhooks } = (await (await fetch(`${app.baseUrl}/webhooks`, { headers: auth })).json()) as { webhooks: { id: string }[] };
    for (const { id } of webhooks)
      expect((await fetch(`${app.baseUrl}/webhooks/${id}`, { method: "DELETE", headers: auth })).status).toBe(200);
  });

  it("renders doc comments' Markdown as elements, never as HTML from the comment", async () => {
    await page.goto(`${dash.url}/#/explorer/analytics.daily`);
    const doc = page.locator(".explorer [data-testid=markdown]");
    await doc.waitFor();
    expect(await doc.locator("code").first().textContent()).toBe("days");
    const rendered: any = await page.evaluate(`(async () => {
      const { inline, blocks } = await import("/ui/markdown.js");
      const { render, h } = await import("/vendor/preact.mjs");
      const el = document.createElement("div");
      render(h("p", null, inline('<img src=x onerror="window.hacked=1"> [x](javascript:alert(1)) **b** \`c\`')), el);
      return { html: el.innerHTML, blocks: blocks("a\\nb\\n\\n- one\\n- two").map((b) => b.type), hacked: window.hacked };
    })()`);
    expect(rendered.html).toBe(
      '<p>&lt;img src=x onerror="window.hacked=1"&gt; [x](javascript:alert(1)) <strong>b</strong> <code>c</code></p>',
    );
    expect(rendered.blocks).toEqual(["p", "ul"]);
    expect(rendered.hacked).toBeUndefined();
  });

  it("lists every service in the catalog with every endpoint, its method, path, auth flag and request and response fields", async () => {
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
      if (ep.raw) {
        expect(await card.textContent()).toContain("Raw endpoint");
        continue;
      }
      for (const [title, schema] of [
        ["Request", ep.request],
        ["Response", ep.response],
      ] as const) {
        if (!schema) {
          expect(await card.locator(`[data-testid="no-fields"][data-schema="${title}"]`).count(), `${ep.name} ${title}`).toBe(1);
          continue;
        }
        const table = card.locator(`[data-testid="fields"][data-schema="${title}"]`);
        const names = await table.locator("tbody tr td:first-child").allTextContents();
        expect(names, `${ep.name} ${title}`).toEqual(schema.fields.map((f) => `${f.wireName}${f.optional ? "?" : ""}`));
        const types = await table.locator("tbody tr td:nth-child(2)").allTextContents();
        expect(types.every((t) => t.length > 0)).toBe(true);
      }
    }
    const shorten = page.locator('[data-endpoint="url.shorten"]');
    // The doc comment's Markdown: `url` is code, not backticks.
    expect(await shorten.getByTestId("markdown").textContent()).toContain("shorten stores url under a fresh code");
    expect(await shorten.getByTestId("markdown").locator("code").first().textContent()).toBe("url");
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
    // Every label fits its box: node names inside their node, edge labels inside their own background.
    const overflows: string[] = await page.evaluate(`(() => {
      const out = [];
      const inside = (t, box) => {
        const a = t.getBBox();
        const b = box.getBBox();
        return a.x >= b.x - 0.5 && a.x + a.width <= b.x + b.width + 0.5 && a.y >= b.y - 0.5 && a.y + a.height <= b.y + b.height + 0.5;
      };
      for (const g of document.querySelectorAll('[data-testid="node"], [data-testid="edge-label"]')) {
        const box = g.querySelector("rect");
        for (const t of g.querySelectorAll("text")) if (!inside(t, box)) out.push(t.textContent);
      }
      const svg = document.querySelector('[data-testid="flow"]');
      const view = svg.viewBox.baseVal;
      for (const t of svg.querySelectorAll("text")) {
        const a = t.getBBox();
        if (a.x < view.x || a.y < view.y || a.x + a.width > view.x + view.width || a.y + a.height > view.y + view.height) out.push("outside: " + t.textContent);
      }
      return out;
    })()`);
    expect(overflows).toEqual([]);
    // Drawn at its own size: the page scrolls sideways rather than shrinking the text.
    const scale = await page.getByTestId("flow").evaluate((svg: any) => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width);
    expect(scale).toBeCloseTo(1, 3);
    await page.screenshot({ path: path.join(shots, "flow.png"), fullPage: true });
  });

  it("counts in the list the rows the trace's waterfall shows, and filters the list by service, endpoint, status and text", async () => {
    const { traceId } = await shortenOverHttp("https://example.com/span-count");
    await page.goto(`${dash.url}/#/traces/${traceId}`);
    await row("INSERT INTO counted_urls").waitFor(); // the delivery has run
    const shown = await page.getByTestId("row").count();
    await page.goto(`${dash.url}/#/traces`);
    const listed = page.locator(`[data-testid="trace-row"][data-trace-id="${traceId}"]`);
    await expect.poll(() => listed.getByTestId("span-count").textContent()).toBe(String(shown));
    expect(shown).toBeGreaterThan(5);

    await fetch(`${app.baseUrl}/no-such-code-here/stats`);
    await page.getByTestId("filter-service").selectOption("url");
    await page.getByTestId("filter-endpoint").selectOption("stats");
    await page.getByTestId("filter-status").selectOption("4xx");
    await page.getByTestId("trace-row").filter({ hasText: "no-such-code-here" }).first().waitFor();
    const column = (n: number) => page.getByTestId("trace-row").locator(`td:nth-child(${n})`).allTextContents();
    await expect.poll(async () => [...new Set((await column(2)).map((w) => w.replace(/^request /, "")))]).toEqual(["url.stats"]);
    await expect.poll(async () => [...new Set(await column(4))]).toEqual(["404"]);
    await page.getByTestId("filter-status").selectOption("");
    await page.getByTestId("filter-q").fill("no-such-code");
    await expect
      .poll(() => page.getByTestId("trace-row").locator("td:nth-child(3)").allTextContents())
      .toEqual(expect.arrayContaining(["GET /no-such-code-here/stats"]));
    await page.getByTestId("filter-q").fill("nothing-has-this-text");
    await page.getByText("No trace matches.").waitFor();
    await page.getByTestId("filter-q").fill("");
    await page.getByTestId("filter-service").selectOption("");
    await page.getByTestId("trace-row").first().waitFor();
    await page.screenshot({ path: path.join(shots, "traces.png") });
  });

  it("shows a POST /shorten made over HTTP in the live trace list within a second", async () => {
    await page.goto(`${dash.url}/#/traces`);
    await page.getByTestId("trace-list").waitFor();
    const { traceId } = await shortenOverHttp("https://example.com/live");
    const answered = performance.now();
    const listed = page.locator(`[data-testid="trace-row"][data-trace-id="${traceId}"]`).filter({ hasText: "POST /shorten" });
    await listed.filter({ hasText: "200" }).waitFor({ timeout: 1000 });
    expect(performance.now() - answered).toBeLessThan(1000);
    // Dispatched on the row itself: a real click aims at a point, and traces started after the shorten
    // (its delivery's) are listed above the row and may move it from under that point.
    await listed.dispatchEvent("click");
    await expect.poll(() => page.getByTestId("trace-id").textContent()).toBe(traceId);
    await row("INSERT INTO urls").waitFor();
  });

  it("lists the urls table's rows a page at a time and runs read-only SQL", async () => {
    const { code } = await shortenOverHttp("https://example.com/database-explorer");
    await page.goto(`${dash.url}/#/databases`);
    await page.locator('[data-testid="db-tab"][data-database="url"]').click();
    const view = page.locator('[data-testid="db-view"][data-database="url"]');
    await view.locator('[data-testid="table"][data-table="urls"]').click();
    const rows = view.getByTestId("table-rows");
    await rows.getByTestId("rows").waitFor();
    expect(await rows.getByTestId("page-range").textContent()).toMatch(/^rows 1–\d+ of \d+$/);
    const header = await rows.locator("thead th").allTextContents();
    expect(header).toEqual(expect.arrayContaining(["code", "original_url"]));

    await view.getByTestId("sql").fill(`SELECT code, original_url FROM urls WHERE code = '${code}'`);
    await view.getByTestId("run-sql").click();
    await view.getByTestId("sql-summary").waitFor();
    expect(await view.getByTestId("query-box").locator("tbody tr").allTextContents()).toEqual([
      `${code}https://example.com/database-explorer`,
    ]);
    await page.screenshot({ path: path.join(shots, "databases.png"), fullPage: true });

    // Read-only on the server: a write is refused by PostgreSQL, and so is a second statement.
    await view.getByTestId("sql").fill(`DELETE FROM urls WHERE code = '${code}'`);
    await view.getByTestId("run-sql").click();
    await view.getByTestId("sql-error").waitFor();
    expect(await view.getByTestId("sql-error").textContent()).toContain("read-only transaction");
    await view.getByTestId("sql").fill(`SELECT 1; DELETE FROM urls WHERE code = '${code}'`);
    await view.getByTestId("run-sql").click();
    await view.getByTestId("sql-error").filter({ hasText: "multiple commands" }).waitFor();
    expect((await fetch(`${app.baseUrl}/${code}/stats`)).status).toBe(200);
  });

  it("shows each database's migrations, all applied, against the files on disk", async () => {
    await page.goto(`${dash.url}/#/databases`);
    const model = loadAppModel(appRootDir);
    for (const d of model.databases) {
      const card = page.locator(`[data-testid="database"][data-database="${d.name}"]`);
      await card.waitFor();
      const files = fs.readdirSync(d.migrationsDir!).filter((f) => f.endsWith(".up.sql"));
      expect(await card.getByTestId("migration").locator("code").allTextContents(), d.name).toEqual(files);
      expect(await card.locator('[data-testid="migration"][data-state="applied"]').count()).toBe(files.length);
      expect(await card.getByTestId("db-state").textContent()).toBe("up to date");
      expect(await card.getByTestId("db-version").textContent()).toBe(`version ${parseInt(files.at(-1)!, 10)}`);
    }
  });

  it("lists the QR image of a link just shortened in the object browser, and opens it", async () => {
    const link = await shortenOverHttp("https://example.com/object-browser");
    await page.goto(`${dash.url}/#/objects`);
    const bucket = page.locator('[data-testid="bucket"][data-bucket="qr-codes"]');
    await bucket.locator("input").fill(link.code);
    const object = bucket.locator(`[data-testid="object"][data-object="${link.code}.png"]`);
    await object.waitFor();
    await expect.poll(() => bucket.getByTestId("object").count(), { timeout: 5000 }).toBe(1); // the prefix filters the list
    expect(await object.textContent()).toContain("image/png");
    await object.locator("img.thumb").evaluate((img: any) => (img.complete ? null : new Promise((r) => (img.onload = r))));
    expect(await object.locator("img.thumb").evaluate((img: any) => img.naturalWidth)).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(shots, "objects.png") });

    const [tab] = await Promise.all([page.waitForEvent("popup"), object.getByTestId("open-object").click()]);
    await tab.waitForLoadState();
    expect(await tab.evaluate("document.contentType")).toBe("image/png");
    const image = PNG.sync.read(Buffer.from(await (await fetch(tab.url())).arrayBuffer()));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${link.shortUrl}?qr=1`);
    await tab.close();
  });

  it('runs cleanup-stale-urls with "Run now" and opens the run\'s trace with its SQL', async () => {
    await page.goto(`${dash.url}/#/cron`);
    const job = page.locator('[data-testid="cron"][data-cron="cleanup-stale-urls"]');
    await job.getByTestId("run-cron").click();
    await job.getByTestId("cron-trace").waitFor();
    expect(await job.locator(".pill").textContent()).toBe("done");
    await page.screenshot({ path: path.join(shots, "cron.png") });
    await job.getByTestId("cron-trace").click();
    await row("url.cleanupStaleUrls").first().waitFor();
    await row("SQL url: DELETE FROM urls").first().waitFor();
  });

  it("shows track-analytics' queued, in-flight and retrying messages as they change", async () => {
    await page.goto(`${dash.url}/#/pubsub`);
    const sub = page.locator(
      '[data-testid="topic"][data-topic="url-shortened"] [data-testid="subscription"][data-subscription="track-analytics"]',
    );
    const counts = async (queued: number, inFlight: number, retrying: number) => {
      for (const [id, n] of [
        ["queued", queued],
        ["in-flight", inFlight],
        ["retrying", retrying],
      ] as const) {
        await sub.locator(`[data-testid="${id}"]`, { hasText: new RegExp(`^${n}$`) }).waitFor();
      }
    };
    await counts(0, 0, 0);

    // Deliveries wait at their statement until the gate opens: 100 run at once (the default
    // concurrency), the rest wait in the queue.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const exec = analyticsDb.exec.bind(analyticsDb);
    vi.spyOn(analyticsDb, "exec").mockImplementation(async (strings, ...params) => (await gate, exec(strings, ...params)));
    const day = privateMidnight();
    await Promise.all(Array.from({ length: 102 }, () => urlShortened.publish(newEvent(day))));
    await counts(2, 100, 0);
    await page.screenshot({ path: path.join(shots, "pubsub.png") });
    open();
    await counts(0, 0, 0);
    vi.restoreAllMocks();

    // A delivery that fails waits for its retry (1 s, here 3 s), then succeeds.
    await setRetryBackoffScale(3);
    try {
      vi.spyOn(analyticsDb, "exec").mockRejectedValueOnce(new Error("connection reset"));
      captureLogs(redeliveryWarning("track-analytics", "connection reset"));
      await urlShortened.publish(newEvent(day));
      await counts(0, 0, 1);
      await counts(0, 0, 0);
    } finally {
      await setRetryBackoffScale(1);
    }
  });

  it("shows a committed click batch after some resolves, live", async () => {
    const { code } = await shortenOverHttp("https://example.com/batches");
    await page.goto(`${dash.url}/#/batches`);
    await page.locator('[data-testid="batch-queue"], [data-testid="no-batches"]').first().waitFor();
    const batches = page.locator('[data-testid="batch-queue"][data-queue="clicks"] [data-testid="batch"]');
    const numbers = await batches.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-batch"))));
    const before = Math.max(0, ...numbers);

    const visits = await Promise.all(Array.from({ length: 8 }, () => fetch(`${app.baseUrl}/${code}`)));
    expect(visits.map((v) => v.status)).toEqual(Array(8).fill(200));
    // Every click is in a batch the page shows as committed: the view updates live, without a reload.
    const mine = async () => {
      const rows = await batches.evaluateAll((els) => els.map((e) => ({ ...e.dataset })));
      const newer = rows.filter((r) => Number(r.batch) > before);
      return { clicks: newer.reduce((n, r) => n + Number(r.size), 0), states: [...new Set(newer.map((r) => r.state))] };
    };
    await expect.poll(mine, { timeout: 10_000 }).toEqual({ clicks: 8, states: ["committed"] });
    expect(await page.locator('[data-testid="batch-queue"][data-queue="clicks"]').getByTestId("in-flight").textContent()).toBe(
      "no batch in flight",
    );
    await page.screenshot({ path: path.join(shots, "batches.png") });
  });
});
