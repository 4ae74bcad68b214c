import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describeLocal, startApp, type SpawnedApp } from "../local/testing";
import { CONFIRM_ENV, CONFIRM_FLAG, DEFAULT_BASE_URL, DEMO_PASSWORD, isLocalTarget, loadSeeds, parseArgs, sampleLinks } from "./load";

describe("the sample data", () => {
  const links = sampleLinks();

  it("has about 30 distinct absolute https links with visit counts that differ", () => {
    expect(links.length).toBeGreaterThanOrEqual(25);
    expect(new Set(links.map((l) => l.url)).size).toBe(links.length);
    for (const link of links) {
      expect(new URL(link.url).protocol).toBe("https:");
      expect(link.title.length).toBeGreaterThan(0);
      expect(Number.isInteger(link.visits) && link.visits >= 0).toBe(true);
    }
    expect(new Set(links.map((l) => l.visits)).size).toBeGreaterThan(3);
  });
});

describe("which targets the loader accepts", () => {
  it.each(["http://127.0.0.1:4000", "http://localhost:8080/", "http://[::1]:4000", "http://127.10.0.3"])("%s is local", (url) => {
    expect(isLocalTarget(url)).toBe(true);
  });

  it.each(["https://sho.rt", "http://10.0.0.5:4000", "http://0.0.0.0:4000", "http://127.0.0.1.nip.io", "http://localhost.example.com"])(
    "%s is not local",
    (url) => {
      expect(isLocalTarget(url)).toBe(false);
    },
  );

  it("refuses a remote target without confirmation, before sending anything", async () => {
    const printed: string[] = [];
    await expect(loadSeeds({ baseUrl: "https://sho.rt", print: (l) => printed.push(l) })).rejects.toThrow(
      `refusing to seed https://sho.rt: it is not a loopback address. Pass ${CONFIRM_FLAG} (or set ${CONFIRM_ENV}=1)`,
    );
    expect(printed).toEqual([]);
  });

  it("says in one line, from the command line too, that nothing answers when no app runs", async () => {
    const closed = await closedPort();
    const baseUrl = `http://127.0.0.1:${closed}`;
    await expect(loadSeeds({ baseUrl, print: () => {} })).rejects.toThrow(
      `nothing answers at ${baseUrl} (ECONNREFUSED): start the app first with npm start`,
    );
    const tsx = path.join(appRoot, "node_modules", ".bin", "tsx");
    const failed = await promisify(execFile)(tsx, [path.join(appRoot, "seeds", "load.ts"), baseUrl]).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `nothing answers at ${baseUrl} (ECONNREFUSED): start the app first with npm start\n`,
    });
  });

  it("refuses something that is not an http(s) URL", async () => {
    await expect(loadSeeds({ baseUrl: "ftp://127.0.0.1" })).rejects.toThrow("not an http(s) base URL");
  });

  it("reads the base URL and the confirmation from the command line or the environment", () => {
    expect(parseArgs([], {})).toEqual({ baseUrl: DEFAULT_BASE_URL, confirmed: false, email: undefined, password: undefined });
    expect(parseArgs(["https://sho.rt", CONFIRM_FLAG], {}).confirmed).toBe(true);
    expect(parseArgs(["https://sho.rt"], { [CONFIRM_ENV]: "1" })).toMatchObject({ baseUrl: "https://sho.rt", confirmed: true });
    expect(parseArgs(["https://sho.rt"], { [CONFIRM_ENV]: "yes" }).confirmed).toBe(false);
    expect(() => parseArgs(["--yes"], {})).toThrow(/usage/);
    expect(() => parseArgs(["http://a", "http://b"], {})).toThrow(/usage/);
  });
});

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** A loopback port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Against the app as `npm start` runs it, in a child process with its own fresh local state.
describeLocal("loading the seeds into a running app", () => {
  let server: SpawnedApp;

  // Starting the whole app (three databases migrated) can take a minute on a loaded machine.
  beforeAll(async () => {
    server = await startApp(appRoot);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  }, 240_000);

  it("creates links that resolve, with the clicks it made, and logs in when the account exists", async () => {
    const email = `demo-${randomUUID()}@example.com`;
    const links = sampleLinks();
    const printed: string[] = [];
    const summary = await loadSeeds({ baseUrl: server.baseUrl, email, print: (l) => printed.push(l) });

    expect(summary.account).toBe("signup");
    expect(summary.links.map((l) => l.url)).toEqual(links.map((l) => l.url));
    expect(summary.visits).toBe(links.reduce((n, l) => n + l.visits, 0));
    expect(printed.at(-1)).toBe(`seeded ${links.length} links and ${summary.visits} visits on ${server.baseUrl} as ${email}`);

    for (const link of summary.links) {
      expect(link.code).toMatch(/^[0-9a-z]{6}$/);
      expect(link.shortUrl).toBe(`${server.baseUrl}/${link.code}`);
      const stats = await fetch(`${server.baseUrl}/${link.code}/stats`);
      expect(await stats.json()).toEqual({ code: link.code, originalUrl: link.url, clicks: link.visits });
    }

    // A visitor following one of the links lands on the original URL (and adds a click).
    const [first] = summary.links;
    const resolved = await fetch(`${server.baseUrl}/${first.code}`, { redirect: "manual", headers: { Accept: "text/html" } });
    expect(resolved.status).toBe(302);
    expect(resolved.headers.get("location")).toBe(first.url);
    const json = await fetch(`${server.baseUrl}/${first.code}`);
    expect(await json.json()).toEqual({ url: first.url });

    // Running it again logs the same account in and adds nothing: no new links, no more visits.
    const again = await loadSeeds({ baseUrl: server.baseUrl, email, print: () => {} });
    expect(again.account).toBe("login");
    expect(again).toMatchObject({ created: 0, visits: 0 });
    expect(again.links.map((l) => l.code)).toEqual(summary.links.map((l) => l.code));
    const mine = await fetch(`${server.baseUrl}/urls`, { headers: { Authorization: `Bearer ${await tokenOf(email)}` } });
    const { urls, nextCursor } = (await mine.json()) as { urls: unknown[]; nextCursor?: string };
    expect(nextCursor).toBeDefined();
    expect(urls).toHaveLength(20);
    const stats = await fetch(`${server.baseUrl}/${summary.links[1].code}/stats`);
    expect(((await stats.json()) as { clicks: number }).clicks).toBe(summary.links[1].visits);
  });

  /** A fresh token for the demo account of one test. */
  async function tokenOf(email: string): Promise<string> {
    const login = await fetch(`${server.baseUrl}/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    return ((await login.json()) as { token: string }).token;
  }

  it("fails with the server's error when the demo account exists with another password", async () => {
    const email = `demo-${randomUUID()}@example.com`;
    await loadSeeds({ baseUrl: server.baseUrl, email, links: [], print: () => {} });
    await expect(loadSeeds({ baseUrl: server.baseUrl, email, password: "another-password-1", links: [], print: () => {} })).rejects.toThrow(
      "POST /auth/login failed: HTTP 401 unauthenticated: invalid email or password",
    );
  });

  it("runs from the command line (npm run seed) and prints its summary", async () => {
    const tsx = path.join(appRoot, "node_modules", ".bin", "tsx");
    const { stdout } = await promisify(execFile)(tsx, [path.join(appRoot, "seeds", "load.ts"), server.baseUrl], {
      env: { ...process.env, SEED_EMAIL: `cli-${randomUUID()}@example.com` },
    });
    expect(stdout).toMatch(new RegExp(`seeded ${sampleLinks().length} links and \\d+ visits on ${server.baseUrl} as cli-`));
  });
});
