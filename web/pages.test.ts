// The page and its assets over HTTP on the whole app: GET and HEAD of both, their cache headers,
// and an unknown asset that is a 404 and never a short-link lookup (no click, no redirect).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { url } from "~encore/clients";
import { describeLocal, expectErrorResponse, startTestServer, type TestServer } from "../local/testing";
import { newUser, shortenAs } from "../url/__tests__/helpers";

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), "dist");
let server: TestServer;
/** Links made before any request, so no idle keep-alive connection ages while the app is busy. */
let asset: { code: string };
let link: { code: string; shortUrl: string };

/** The bundled script the page names (its file name carries a content hash). */
function scriptPath(): string {
  const html = fs.readFileSync(path.join(dist, "page", "index.html"), "utf8");
  return /src="(\/ui\/app-[A-Z0-9]+\.js)"/.exec(html)![1];
}

describeLocal("the web page over HTTP", () => {
  beforeAll(async () => {
    server = await startTestServer();
    asset = await shortenAs(newUser(), "https://example.com/not-an-asset");
    link = await shortenAs(newUser(), "https://example.com/still-a-link");
  });

  afterAll(async () => {
    await server.close();
  });

  it("serves the page at / on GET and HEAD, revalidated on every visit", async () => {
    const get = await fetch(server.baseUrl + "/");
    const body = await get.text();
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toMatch(/^text\/html/);
    expect(get.headers.get("cache-control")).toBe("no-cache");
    expect(body).toContain(`src="${scriptPath()}"`);
    // An inline icon: otherwise every browser visit asks for /favicon.ico, a short-link lookup that 404s.
    expect(body).toContain('<link rel="icon" href="data:," />');

    const head = await fetch(server.baseUrl + "/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(body)));
  });

  it("serves the bundle under /ui/ on GET and HEAD, cached for good", async () => {
    const file = scriptPath();
    const get = await fetch(server.baseUrl + file);
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toMatch(/javascript/);
    expect(get.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bytes = (await get.arrayBuffer()).byteLength;
    expect(bytes).toBe(fs.statSync(path.join(dist, file.replace(/^\//, ""))).size);

    const head = await fetch(server.baseUrl + file, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("answers an unknown asset with 404 file not found and never looks up the short link it names", async () => {
    const { code } = asset;
    for (const p of [`/ui/${code}`, `/ui/${code}/stats`, "/ui/app-missing.js", "/ui/"]) {
      for (const accept of ["application/json", "text/html"]) {
        const res = await fetch(server.baseUrl + p, { redirect: "manual", headers: { Accept: accept } });
        expect(res.status, `${p} (${accept})`).toBe(404);
        expect(await res.json()).toMatchObject({ code: "not_found", message: "file not found", details: null });
      }
    }
    expect((await url.stats({ code })).clicks).toBe(0);
  });

  it("leaves a link's path to the short links", async () => {
    const { code, shortUrl } = link;
    expect(new URL(shortUrl).pathname).toBe(`/${code}`);
    const res = await fetch(shortUrl, { redirect: "manual", headers: { Accept: "text/html" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/still-a-link");
  });

  // Encore's router (matchit 0.7) does not fall back from the static prefixes "ui/", "u", "a" and
  // "url" to /:code when one slash is missing or left over; no link code is two characters or less,
  // and /url/ is only the slashed form of a link.
  it.each(["/ui", "/u/", "/a/", "/url/"])("answers %s with 404 endpoint not found, as Encore's router does", async (p) => {
    const res = await fetch(server.baseUrl + p, { headers: { Accept: "application/json" } });
    await expectErrorResponse(res, 404, { code: "not_found", message: "endpoint not found" });
  });

  it("answers a private endpoint's path with 404 endpoint not found", async () => {
    await expectErrorResponse(await fetch(server.baseUrl + "/internal/totals"), 404, { code: "not_found", message: "endpoint not found" });
  });
});
