// Every curl in README.md runs here, in README order, against the app served as `npm start` serves it,
// and its output must match the block that follows it in the README. Only what genuinely varies
// between runs is normalized: tokens, timestamps and dates, short codes (mapped README code <->
// real code, so later commands and outputs must use the same codes consistently), the port, user
// ids, and app-wide counters when the tests share a PostgreSQL server with other test files.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeLocal, drainTopic, startTestServer, type TestServer } from "../local/testing";
import { loadAppModel } from "../local/appmodel/cache";
import { holdCleanupTurnForThisFile } from "../url/__tests__/helpers";
import { README_BASE_URL, extractCurlExamples, normalizeOutput, requestOf, routeOf, type CurlExample } from "./readme-curl";

const run = promisify(execFile);

// The README's cron-trigger example needs the server to know the token; secrets are read when the
// endpoint module loads, so this runs before any import.
const CRON_TOKEN = vi.hoisted(() => {
  const token = "readme-" + "0123456789abcdef".repeat(3);
  vi.stubEnv("CronTriggerToken", token);
  return token;
});

const readme = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8");
const examples = extractCurlExamples(readme);
// With DATABASE_URL the test files of a run share one database, so app-wide counts are not ours alone.
const sharedDatabase = process.env.DATABASE_URL !== undefined;

describe("the README checker", () => {
  const fence = "```";
  const curl = `${fence}sh\ncurl -s ${README_BASE_URL}/abc123/stats\n${fence}`;

  it("pairs each curl block with the output block right after it", () => {
    const [example] = extractCurlExamples(`intro\n\n${curl}\n\n${fence}json\n{"clicks":2}\n${fence}\n`);
    expect(example.command).toBe(`curl -s ${README_BASE_URL}/abc123/stats`);
    expect(example.output).toBe('{"clicks":2}\n');
    expect(example.title).toMatch(/^README\.md:3 curl -s/);
  });

  it("rejects a curl without its output, or with prose in between, or two commands in a block", () => {
    expect(() => extractCurlExamples(curl)).toThrow(/followed directly/);
    expect(() => extractCurlExamples(`${curl}\nthen\n${fence}json\n{}\n${fence}`)).toThrow(/followed directly/);
    expect(() => extractCurlExamples(`${fence}sh\ncurl -s ${README_BASE_URL}/a\ncurl -s ${README_BASE_URL}/b\n${fence}\n${fence}text\nx\n${fence}`)).toThrow(/exactly one curl/);
  });

  it("normalizes tokens, times, dates, ids, codes and the port, and nothing else", () => {
    const options = { baseUrl: "http://127.0.0.1:5555", codes: new Map([["zz99zz", "abc123"]]), sharedDatabase: false };
    const real = '{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln","expiresAt":"2030-01-02T03:04:05.678Z"}';
    expect(normalizeOutput(real, options)).toBe('{"token":"<token>","expiresAt":"<time>"}');
    expect(normalizeOutput('{"shortUrl":"http://127.0.0.1:5555/zz99zz","id":"42","date":"2030-01-02"}', options)).toBe(
      '{"shortUrl":"http://127.0.0.1:4000/abc123","id":"<id>","date":"<date>"}',
    );
    expect(normalizeOutput('{"clicks":3,"total":7}', options)).toBe('{"clicks":3,"total":7}');
    expect(normalizeOutput('{"code":"internal","message":"m","details":null,"internal_message":"a \\"b\\""}', options)).toBe(
      '{"code":"internal","message":"m","details":null}',
    );
    expect(normalizeOutput('{"clicks":3,"total":7}', { ...options, sharedDatabase: true })).toBe('{"clicks":3,"total":<n>}');
  });

  it("reads the request a curl sends and the route it hits", () => {
    expect(requestOf(`curl -s ${README_BASE_URL}/abc123/stats`)).toEqual({ method: "GET", path: "/abc123/stats" });
    expect(requestOf(`curl -s -H 'A: b' -d '{}' '${README_BASE_URL}/shorten'`)).toEqual({ method: "POST", path: "/shorten" });
    expect(requestOf(`curl -s -X DELETE ${README_BASE_URL}/urls/abc123 -d x`)).toEqual({ method: "DELETE", path: "/urls/abc123" });
    const routes = ["/:code", "/:code/stats", "/urls", "/urls/:code"];
    expect(routeOf(routes, "/urls")).toBe("/urls");
    expect(routeOf(routes, "/abc123")).toBe("/:code");
    expect(routeOf(routes, "/urls/abc123")).toBe("/urls/:code");
    expect(routeOf(routes, "/a/b/c")).toBeNull();
  });

  it("shows a curl for every exposed endpoint of the app", () => {
    const exposed = loadAppModel(fileURLToPath(new URL("..", import.meta.url))).endpoints.filter((e) => e.expose);
    const shown = new Set<string>();
    for (const example of examples) {
      const { method, path: urlPath } = requestOf(example.command);
      const route = routeOf(exposed.filter((e) => e.methods.includes(method as never)).map((e) => e.path), urlPath);
      if (route !== null) shown.add(`${method} ${route}`);
    }
    const missing = exposed.flatMap((e) => e.methods.map((m) => `${m} ${e.path}`)).filter((key) => !shown.has(key));
    expect(missing).toEqual([]);
    expect(exposed.length).toBeGreaterThanOrEqual(10);
  });
});

describeLocal("every curl in README.md", () => {
  let server: TestServer;
  /** README code -> code the server really issued. */
  const codes = new Map<string, string>();
  let token = "";

  // Commands run in an empty directory, so nothing they write lands in the repository.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "readme-curl-"));

  // The README runs the stale-link cleanup, which must not race the url service's cleanup tests.
  holdCleanupTurnForThisFile();

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
    vi.unstubAllEnvs();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it("has curl examples, each followed by its output", () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.map((e): [string, CurlExample] => [e.title, e]))("%s", async (_title, example) => {
    // Analytics reads what the url-shortened events delivered; a reader typing the next command
    // would see them all handled.
    if (example.command.includes("/analytics/")) await drainTopic("url-shortened");
    let command = example.command.replaceAll(README_BASE_URL, server.baseUrl);
    for (const [readmeCode, realCode] of codes) command = command.replace(new RegExp(`\\b${readmeCode}\\b`, "g"), realCode);

    const { stdout } = await run("bash", ["-c", command], {
      cwd: scratch,
      env: { PATH: process.env.PATH, HOME: scratch, TOKEN: token, CRON_TRIGGER_TOKEN: CRON_TOKEN },
    });

    const learned = learnCodes(example.output, stdout);
    const tokenIn = /"token":"([^"]+)"/.exec(stdout);
    if (tokenIn) token = tokenIn[1];

    const actual = normalizeOutput(stdout, { baseUrl: server.baseUrl, codes: learned, sharedDatabase });
    const expected = normalizeOutput(example.output, { baseUrl: README_BASE_URL, codes: new Map(), sharedDatabase });
    expect(actual, `output of: ${example.command}`).toBe(expected);
  });

  /** Pairs the codes in the README output with those in the real one; returns real -> README. */
  function learnCodes(readmeOutput: string, stdout: string): Map<string, string> {
    const shown = [...readmeOutput.matchAll(/"code":"([0-9a-z]{6})"/g)].map((m) => m[1]);
    const real = [...stdout.matchAll(/"code":"([0-9a-z]{6})"/g)].map((m) => m[1]);
    shown.forEach((readmeCode, i) => {
      if (real[i] === undefined) return;
      if (!codes.has(readmeCode)) codes.set(readmeCode, real[i]);
    });
    return new Map([...codes].map(([readmeCode, realCode]) => [realCode, readmeCode]));
  }
});
