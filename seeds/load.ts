// Fills a RUNNING instance with sample data through its public API, for demos and load tests:
// signs up (or logs in) a demo user, shortens every link in links.json and resolves each one as
// many times as its "visits" says, so the stats differ from link to link.
//
//   npx tsx seeds/load.ts                                   # http://127.0.0.1:4000
//   npx tsx seeds/load.ts http://localhost:8080
//   npx tsx seeds/load.ts https://sho.rt --yes-i-mean-it    # a host not on this machine needs confirmation
//
// It talks HTTP only, so it works the same against `npm start`, `encore run` and a self-hosted image.
import fs from "node:fs";
import { isIP } from "node:net";
import { pathToFileURL } from "node:url";

/** DEFAULT_BASE_URL is where `npm start` and `encore run` serve the API. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:4000";

/** CONFIRM_FLAG and CONFIRM_ENV allow a target that is not on this machine. */
export const CONFIRM_FLAG = "--yes-i-mean-it";
export const CONFIRM_ENV = "SEED_YES_I_MEAN_IT";

/** The demo account; SEED_EMAIL / SEED_PASSWORD override it. */
export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password-123";

/** SampleLink is one entry of links.json. */
export interface SampleLink {
  title: string;
  url: string;
  /** How many times the loader resolves the short link. */
  visits: number;
}

/** SeedOptions configure one run of the loader. */
export interface SeedOptions {
  baseUrl: string;
  /** Required for a target whose host is not a loopback address. */
  confirmed?: boolean;
  email?: string;
  password?: string;
  links?: SampleLink[];
  /** Where progress and the summary go; console.log by default. */
  print?: (line: string) => void;
}

/** SeededLink is a link the loader created. */
export interface SeededLink extends SampleLink {
  code: string;
  shortUrl: string;
}

/** SeedSummary is what one run created. */
export interface SeedSummary {
  baseUrl: string;
  email: string;
  /** "signup" for a new demo account, "login" when it already existed. */
  account: "signup" | "login";
  /** Every sample link, created now or found from an earlier run. */
  links: SeededLink[];
  /** How many links this run created. */
  created: number;
  /** How many visits this run made (only to links it created). */
  visits: number;
}

/** sampleLinks reads links.json next to this file. */
export function sampleLinks(): SampleLink[] {
  return JSON.parse(fs.readFileSync(new URL("./links.json", import.meta.url), "utf8")) as SampleLink[];
}

/**
 * isLocalTarget tells whether baseUrl's host is this machine's loopback interface: localhost,
 * 127.0.0.0/8 or ::1. Names that merely start with those ("127.0.0.1.example.com") are not.
 */
export function isLocalTarget(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host === "::1") return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

/** loadSeeds runs the loader against a running instance and returns what it created. */
export async function loadSeeds(options: SeedOptions): Promise<SeedSummary> {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!isLocalTarget(baseUrl) && !options.confirmed) {
    throw new Error(
      `refusing to seed ${baseUrl}: it is not a loopback address. ` +
        `Pass ${CONFIRM_FLAG} (or set ${CONFIRM_ENV}=1) if you really mean to write demo data there.`,
    );
  }
  const print = options.print ?? console.log;
  const email = options.email ?? DEMO_EMAIL;
  const password = options.password ?? DEMO_PASSWORD;
  const client = new ApiClient(baseUrl);

  const { token, account } = await signIn(client, email, password);
  print(`${account === "signup" ? "signed up" : "logged in as"} ${email}`);

  // Links the account already has are left alone, so running the loader twice adds nothing.
  const existing = await ownLinks(client, token);
  const links: SeededLink[] = [];
  let visits = 0;
  let kept = 0;
  for (const link of options.links ?? sampleLinks()) {
    const already = existing.get(new URL(link.url).href);
    if (already !== undefined) {
      links.push({ ...link, ...already });
      kept++;
      continue;
    }
    const short = await client.call<{ code: string; shortUrl: string }>("POST", "/shorten", { url: link.url }, token);
    for (let i = 0; i < link.visits; i++) {
      const resolved = await client.call<{ url: string }>("GET", `/${short.code}`);
      if (resolved.url !== link.url) {
        throw new Error(`GET /${short.code} returned ${resolved.url}, expected ${link.url}`);
      }
      visits++;
    }
    links.push({ ...link, code: short.code, shortUrl: short.shortUrl });
  }

  for (const link of links)
    print(`${link.shortUrl}  ${String(link.visits).padStart(2)} visit${link.visits === 1 ? " " : "s"}  ${link.title}`);
  const created = links.length - kept;
  print(`seeded ${created} links and ${visits} visits on ${baseUrl} as ${email}${kept > 0 ? ` (${kept} were already there)` : ""}`);
  return { baseUrl, email, account, links, created, visits };
}

/** ownLinks maps each target the account has already shortened to its short link, over every page of GET /urls. */
async function ownLinks(client: ApiClient, token: string): Promise<Map<string, { code: string; shortUrl: string }>> {
  const links = new Map<string, { code: string; shortUrl: string }>();
  let cursor: string | undefined;
  do {
    const page = await client.call<{ urls: { code: string; shortUrl: string; originalUrl: string }[]; nextCursor?: string }>(
      "GET",
      cursor === undefined ? "/urls" : `/urls?cursor=${encodeURIComponent(cursor)}`,
      undefined,
      token,
    );
    for (const url of page.urls) if (!links.has(url.originalUrl)) links.set(url.originalUrl, { code: url.code, shortUrl: url.shortUrl });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return links;
}

/** signIn signs the demo user up, or logs in when the account already exists. */
async function signIn(client: ApiClient, email: string, password: string): Promise<{ token: string; account: "signup" | "login" }> {
  try {
    const { token } = await client.call<{ token: string }>("POST", "/auth/signup", { email, password });
    return { token, account: "signup" };
  } catch (err) {
    if (!(err instanceof ApiCallError && err.code === "already_exists")) throw err;
  }
  const { token } = await client.call<{ token: string }>("POST", "/auth/login", { email, password });
  return { token, account: "login" };
}

/** ApiCallError is an Encore error response ({code, message}) from the instance. */
export class ApiCallError extends Error {
  constructor(
    readonly request: string,
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${request} failed: HTTP ${status} ${code}: ${message}`);
    this.name = "ApiCallError";
  }
}

class ApiClient {
  constructor(private readonly baseUrl: string) {}

  /** call sends a JSON request and returns the JSON answer; API clients always get JSON, never a redirect. */
  async call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token !== undefined) headers.Authorization = `Bearer ${token}`;
    let resp: Response;
    try {
      resp = await fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: "manual",
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new Error(`nothing answers at ${this.baseUrl} (${cause}): start the app first with npm start`);
    }
    const text = await resp.text();
    if (!resp.ok) {
      const error = parseJson(text) as { code?: string; message?: string } | null;
      throw new ApiCallError(`${method} ${path}`, resp.status, error?.code ?? "unknown", error?.message ?? text);
    }
    return parseJson(text) as T;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function parseBaseUrl(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new Error(`not an http(s) base URL: ${JSON.stringify(value)}`);
  }
  return value.replace(/\/+$/, "");
}

/** parseArgs reads `[baseUrl] [--yes-i-mean-it]`; the confirmation may also come from the environment. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): Pick<SeedOptions, "baseUrl" | "confirmed" | "email" | "password"> {
  const unknown = argv.filter((a) => a.startsWith("-") && a !== CONFIRM_FLAG);
  const positional = argv.filter((a) => !a.startsWith("-"));
  if (unknown.length > 0 || positional.length > 1) {
    throw new Error(`usage: tsx seeds/load.ts [base URL, default ${DEFAULT_BASE_URL}] [${CONFIRM_FLAG}]`);
  }
  return {
    baseUrl: positional[0] ?? DEFAULT_BASE_URL,
    confirmed: argv.includes(CONFIRM_FLAG) || env[CONFIRM_ENV] === "1",
    email: env.SEED_EMAIL,
    password: env.SEED_PASSWORD,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    await loadSeeds(parseArgs(process.argv.slice(2), process.env));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
