// Retakes docs/web-app.png, the README's picture of the web app: builds the pages, starts the app as
// `npm start` does on fresh, empty state on the default port 4000, gives a new account
// (ana@acme.example) a few links with clicks through the API, then logs in through the form in
// Chromium, shortens one more link and captures the result. Run: `npm run screenshot`.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startApp } from "../local/index";
import { launchChromium } from "../web/__tests__/chromium";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUTPUT = path.join(root, "docs", "web-app.png");
const EMAIL = "ana@acme.example";
const PASSWORD = "lighthouse-harbor-42";

/** The account's links: what a marketing team shortens, with tags; clicks is how many visits each gets. */
const LINKS = [
  { url: "https://acme.example/pricing", alias: "pricing", tags: ["website"], clicks: 14 },
  { url: "https://acme.example/blog/2026/how-we-cut-build-times-in-half", tags: ["blog"], clicks: 9 },
  { url: "https://acme.example/careers/senior-backend-engineer", alias: "join-backend", tags: ["hiring"], clicks: 6 },
  { url: "https://docs.acme.example/getting-started?ref=newsletter", tags: ["docs", "newsletter"], clicks: 4 },
  { url: "https://acme.example/events/devday-2026/slides.pdf", tags: ["events"], clicks: 2 },
];

/** The link shortened in the picture. */
const NEW_LINK = "https://acme.example/blog/2026/spring-launch-week-recap";

/** Visitors: a country (as a CDN's header names it), a browser, and an address from the documentation ranges. */
const VISITORS = [
  {
    country: "DE",
    address: "198.51.100.10",
    ua: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  },
  {
    country: "US",
    address: "203.0.113.20",
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  },
  {
    country: "PT",
    address: "198.51.100.30",
    ua: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  },
  {
    country: "BR",
    address: "203.0.113.40",
    ua: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
  },
];

async function api<T>(baseUrl: string, method: string, route: string, token: string | null, body: unknown): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const resp = await fetch(baseUrl + route, { method, headers, body: JSON.stringify(body) });
  if (!resp.ok) throw new Error(`${method} ${route}: ${resp.status} ${await resp.text()}`);
  return (await resp.json()) as T;
}

async function seed(baseUrl: string): Promise<void> {
  const { token } = await api<{ token: string }>(baseUrl, "POST", "/auth/signup", null, { email: EMAIL, password: PASSWORD });
  for (const { clicks, ...link } of LINKS) {
    const { code } = await api<{ code: string }>(baseUrl, "POST", "/shorten", token, link);
    for (let i = 0; i < clicks; i++) {
      const who = VISITORS[i % VISITORS.length];
      const resp = await fetch(`${baseUrl}/${code}`, {
        redirect: "manual",
        headers: { Accept: "text/html", "User-Agent": who.ua, "CF-IPCountry": who.country, "X-Forwarded-For": who.address },
      });
      if (resp.status !== 302) throw new Error(`visiting /${code}: ${resp.status}`);
    }
  }
}

async function main(): Promise<void> {
  execFileSync("npm", ["run", "build:web"], { cwd: root, stdio: "inherit" });
  // Behind one trusted proxy that names the country, so the seeded visits come from several.
  const app = await startApp(root, { PORT: "4000", DASH_PORT: "0", TRUSTED_PROXY_HOPS: "1", TRUSTED_COUNTRY_HEADER: "CF-IPCountry" });
  const browser = await launchChromium();
  try {
    if (new URL(app.baseUrl).port !== "4000") throw new Error(`the app listens on ${app.baseUrl}, not port 4000`);
    await seed(app.baseUrl);
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: "light" });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await page.goto(app.baseUrl + "/");
    await page.getByLabel("Email", { exact: true }).fill(EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.getByRole("heading", { name: "Shorten a link" }).waitFor();
    await page.getByLabel("Long URL", { exact: true }).fill(NEW_LINK);
    await page.getByLabel("Alias", { exact: true }).fill("launch-week");
    await page.getByRole("button", { name: "Shorten", exact: true }).click();
    const qr = page.getByRole("img", { name: /^QR code for / });
    await qr.waitFor();
    await page.waitForFunction("[...document.images].every((img) => img.complete && img.naturalWidth > 0)");
    // The caret would blink into the picture; the page is captured as a person would see it after shortening.
    await page.evaluate("document.activeElement && document.activeElement.blur()");
    await page.screenshot({ path: OUTPUT });
    console.log(`wrote ${path.relative(process.cwd(), OUTPUT)} from ${app.baseUrl}`);
  } finally {
    await browser.close();
    await app.stop();
  }
}

await main();
