// The README's walkthrough, the API reference that continues it, and the self-hosting guide's curls
// run here as a reader pastes them, in order and in one shell per session (the API reference in the
// README's shell, after it, as it says), against the app served as `npm start` serves it; each output
// must match the block after it. Only what genuinely varies between runs is normalized: tokens, timestamps
// and dates, short codes, the port, user ids, and app-wide counters when the tests share a PostgreSQL
// server with other test files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { captureLogs, describeLocal, drainTopic, loadAppModel, useTestServer } from "../local/testing";
import { holdCleanupTurnForThisFile } from "../url/__tests__/helpers";
import { DOCS_BASE_URL, OutputChecker, ShellSession, normalizeOutput, requestsOf, routeOf, shellExamples, type Mismatch } from "./check";

// The self-hosting guide's cron-trigger example needs the server to know the token; secrets are read
// when the endpoint module loads, so this runs before any import.
const CRON_TOKEN = vi.hoisted(() => {
  const token = "walkthrough-" + "0123456789abcdef".repeat(3);
  vi.stubEnv("CronTriggerToken", token);
  // docs/api.md's abuse examples are Ada's, as a site admin (.ci/walkthrough sets the same).
  vi.stubEnv("ADMIN_EMAILS", "ada@example.com");
  return token;
});

const root = fileURLToPath(new URL("..", import.meta.url));
/** The pages pasted into one shell, in order; a later page may use the variables an earlier one set. */
const SESSIONS = [["README.md", "docs/api.md", "docs/webhooks.md"], ["docs/self-hosting/README.md"]];
const PAGES = SESSIONS.flat();
/** The fewest curl examples each page must have, so that a page cannot lose its examples unnoticed. */
const MIN_EXAMPLES: Record<string, number> = { "README.md": 8, "docs/api.md": 4, "docs/webhooks.md": 4, "docs/self-hosting/README.md": 2 };
const examplesOf = (page: string) => shellExamples(fs.readFileSync(path.join(root, page), "utf8"), page);
// With DATABASE_URL the test files of a run share one database, so app-wide counts are not ours alone.
const sharedDatabase = process.env.DATABASE_URL !== undefined;

describe("the walkthrough checker", () => {
  const fence = "```";
  const curl = `${fence}sh\nCODE=abc123\ncurl -s ${DOCS_BASE_URL}/$CODE/stats\n${fence}`;

  it("pairs each curl block with the output block right after it, or with none", () => {
    const [example] = shellExamples(`intro\n\n${curl}\n\n${fence}json\n{"clicks":2}\n${fence}\n`, "X.md");
    expect(example.command).toBe(`CODE=abc123\ncurl -s ${DOCS_BASE_URL}/$CODE/stats`);
    expect(example.output).toBe('{"clicks":2}\n');
    expect(example.title).toBe("X.md:3 CODE=abc123");
    expect(shellExamples(`${curl}\nthen\n${fence}json\n{}\n${fence}`, "X.md")[0].output).toBeNull();
    expect(shellExamples(`${fence}sh\nnpm start\n${fence}`, "X.md")).toEqual([]);
  });

  it("runs the examples in one shell, stops at the first failing command and names it", async () => {
    const shell = new ShellSession({ baseUrl: "http://127.0.0.1:1", env: { PATH: process.env.PATH }, cwd: root });
    try {
      expect(await shell.run({ title: "a", command: "X=1", output: null })).toBe("");
      expect(await shell.run({ title: "b", command: "echo $X", output: null })).toBe("1\n");
      await expect(shell.run({ title: "c", command: "echo $UNSET", output: null })).rejects.toThrow(/^c failed: .*UNSET: unbound variable/);
    } finally {
      await shell.close();
    }
  });

  it("normalizes tokens, API keys, times, dates, ids, codes and the port, and nothing else", () => {
    const options = { baseUrl: "http://127.0.0.1:5555", codes: new Map([["zz99zz", "abc123"]]), sharedDatabase: false };
    const real = '{"token":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln","expiresAt":"2030-01-02T03:04:05.678Z"}';
    expect(normalizeOutput(real, options)).toBe('{"token":"<token>","expiresAt":"<time>"}');
    expect(normalizeOutput('{"shortUrl":"http://127.0.0.1:5555/zz99zz","id":"42","date":"2030-01-02"}', options)).toBe(
      '{"shortUrl":"http://127.0.0.1:4000/abc123","id":"<id>","date":"<date>"}',
    );
    expect(normalizeOutput('{"clicks":3,"total":7}', options)).toBe('{"clicks":3,"total":7}');
    const key = "sk_" + "Ab-_9".repeat(8) + "xyz";
    expect(normalizeOutput(`{"key":"${key}","prefix":"${key.slice(0, 8)}","name":"sk_short"}`, options)).toBe(
      '{"key":"<key>","prefix":"<prefix>","name":"sk_short"}',
    );
    expect(normalizeOutput("date,dimension,value,clicks\n2030-01-02,country,ZZ,2", options)).toBe(
      "date,dimension,value,clicks\n<date>,country,ZZ,2",
    );
    expect(normalizeOutput('{"code":"internal","message":"m","details":null,"internal_message":"a \\"b\\""}', options)).toBe(
      '{"code":"internal","message":"m","details":null}',
    );
    expect(normalizeOutput('{"clicks":3,"total":7}', { ...options, sharedDatabase: true })).toBe('{"clicks":3,"total":<n>}');
  });

  it("maps each documented code to the one really issued, first seen first", () => {
    const checker = new OutputChecker("http://127.0.0.1:5555", false);
    const example = (output: string) => ({ title: "t", command: "", output });
    expect(checker.check(example('{"code":"abc123"}'), '{"code":"zz99zz"}\n')).toBeNull();
    expect(
      checker.check(example('{"shortUrl":"http://127.0.0.1:4000/abc123"}'), '{"shortUrl":"http://127.0.0.1:5555/zz99zz"}\n'),
    ).toBeNull();
    expect(checker.check(example('{"code":"abc123","clicks":1}'), '{"code":"zz99zz","clicks":2}\n')).toEqual({
      title: "t",
      expected: '{"code":"abc123","clicks":1}',
      actual: '{"code":"abc123","clicks":2}',
    });
    expect(checker.check({ title: "quiet", command: "", output: null }, "noise\n")).toMatchObject({ expected: "", actual: "noise" });
  });

  it("fails an output that does not end with a newline, which would leave the reader's prompt on its line", async () => {
    const shell = new ShellSession({ baseUrl: "http://127.0.0.1:1", env: { PATH: process.env.PATH }, cwd: root });
    const example = { title: "t", command: "printf '{}'", output: "{}\n" };
    try {
      const printed = await shell.run(example);
      expect(printed).toBe("{}");
      expect(new OutputChecker("http://127.0.0.1:5555", false).check(example, printed)).toEqual({
        title: "t",
        expected: "output ending with a newline",
        actual: '"{}" (no trailing newline)',
      });
      expect(await shell.run({ ...example, command: "echo '{}'" })).toBe("{}\n");
    } finally {
      await shell.close();
    }
  });

  it("reads the requests a command sends and the route each hits", () => {
    expect(requestsOf(`curl -s ${DOCS_BASE_URL}/$CODE/stats`)).toEqual([{ method: "GET", path: "/$CODE/stats" }]);
    expect(
      requestsOf(`T=$(curl -s -H 'A: b' -d '{}' '${DOCS_BASE_URL}/shorten' | jq -r .code)\ncurl -s -X DELETE ${DOCS_BASE_URL}/urls/$T`),
    ).toEqual([
      { method: "POST", path: "/shorten" },
      { method: "DELETE", path: "/urls/$T" },
    ]);
    const routes = ["/:code", "/:code/stats", "/urls", "/urls/:code"];
    expect(routeOf(routes, "/urls")).toBe("/urls");
    expect(routeOf(routes, "/abc123")).toBe("/:code");
    expect(routeOf(routes, "/urls/abc123")).toBe("/urls/:code");
    expect(routeOf(routes, "/a/b/c")).toBeNull();
  });

  it("shows a curl for every exposed endpoint of the app", () => {
    // The web pages' static files are no API: web/README.md and web/*.test.ts cover them.
    const exposed = loadAppModel(root).endpoints.filter((e) => e.expose && e.staticAssets === null);
    const shown = new Set<string>();
    for (const { method, path: urlPath } of PAGES.flatMap(examplesOf).flatMap((e) => requestsOf(e.command))) {
      const route = routeOf(
        exposed.filter((e) => e.methods.includes(method as never)).map((e) => e.path),
        urlPath,
      );
      if (route !== null) shown.add(`${method} ${route}`);
    }
    const missing = exposed.flatMap((e) => e.methods.map((m) => `${m} ${e.path}`)).filter((key) => !shown.has(key));
    expect(missing).toEqual([]);
    expect(exposed.length).toBeGreaterThanOrEqual(10);
  });
});

describeLocal("the documented commands, pasted in order", () => {
  const server = useTestServer();
  // Commands run in an empty directory, so nothing they write lands in the repository.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "walkthrough-"));

  // The self-hosting guide runs the stale-link cleanup, which must not race the url service's cleanup tests.
  holdCleanupTurnForThisFile();

  afterAll(async () => {
    vi.unstubAllEnvs();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it.each(SESSIONS.map((pages) => [pages.join(" then "), pages] as const))("%s", async (_name, pages) => {
    for (const page of pages) expect(examplesOf(page).length, page).toBeGreaterThanOrEqual(MIN_EXAMPLES[page]);
    // The self-hosting guide shows the cron trigger refusing a call without the token.
    if (pages.includes("docs/self-hosting/README.md")) {
      captureLogs({ level: "WRN", msg: "refused cron trigger for cleanup-stale-urls", fields: { reason: "invalid cron token" } });
    }
    // docs/api.md's Sessions example presents a used refresh token on purpose; the server warns of it.
    if (pages.includes("docs/api.md")) {
      captureLogs({ level: "WRN", msg: "a used refresh token was presented again; its session has ended" });
    }
    const examples = pages.flatMap(examplesOf);
    const shell = new ShellSession({
      baseUrl: server.baseUrl,
      env: { PATH: process.env.PATH, HOME: scratch, CRON_TRIGGER_TOKEN: CRON_TOKEN },
      cwd: scratch,
    });
    const checker = new OutputChecker(server.baseUrl, sharedDatabase);
    const mismatches: Mismatch[] = [];
    try {
      for (const example of examples) {
        // Analytics reads what the url-shortened events delivered: a reader typing the command sees them handled.
        if (example.command.includes("/analytics/")) await drainTopic("url-shortened");
        const mismatch = checker.check(example, await shell.run(example));
        if (mismatch !== null) mismatches.push(mismatch);
      }
    } finally {
      await shell.close();
    }
    // Every mismatch at once, as .ci/walkthrough lists them.
    expect(mismatches).toEqual([]);
  });
});
