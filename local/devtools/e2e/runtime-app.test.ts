// End to end: the fixture app in local/__tests__/runtime-app served by `npm start`'s code path,
// called over HTTP. Checks the wire behaviour Encore defines: decoding, validation messages, error
// bodies and statuses, auth handler outcomes, raw endpoints, service calls, Pub/Sub, SQL, secrets.
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ErrCode } from "encore.dev/api";
import { expectErrorResponse } from "../../testing";
import { startApp, type SpawnedApp } from "./spawn-app";

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "__tests__", "runtime-app");
let app: SpawnedApp;

beforeAll(async () => {
  app = await startApp(appDir, { DemoSecret: "s3cret" });
});

afterAll(async () => {
  expect(await app.stop()).toBe(0);
});

async function call(pathAndQuery: string, init: RequestInit = {}) {
  const res = await fetch(app.baseUrl + pathAndQuery, init);
  const text = await res.text();
  const json = res.headers.get("content-type") === "application/json" ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, text, json, body: json };
}

function post(p: string, body: unknown, headers: Record<string, string> = {}) {
  return call(p, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers },
  });
}

describe("request decoding", () => {
  it("reads path, query (repeated keys, named Query<>), and header parameters", async () => {
    const res = await call("/echo/abc?q=hi&n=5&tags=a&tags=b&f=true", { headers: { "X-Trace": "t-1" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.json).toEqual({ id: "abc", q: "hi", n: 5, tags: ["a", "b"], trace: "t-1", flag: true });
  });

  // api/schema/cookie.rs reads the header with the cookie crate's split_parse into a CookieJar (0.18.1);
  // runtimes/js/src/cookies.rs hands the handler { name, value }.
  it("reads a Cookie<> parameter as Encore's cookie jar does", async () => {
    const sid = async (cookie: string) => (await call("/cookie", { headers: { Cookie: cookie } })).json;
    expect(await sid("sid=a%20b")).toEqual({ value: "a%20b", fields: ["name", "value"] });
    expect((await sid('sid="quoted"')).value).toBe('"quoted"');
    expect((await sid("sid=first; sid=second")).value).toBe("second");
    expect((await sid("  sid =  spaced  ;x=1")).value).toBe("spaced");
    expect((await sid("junk; =v; sid==x=")).value).toBe("=x=");
    // A byte outside visible ASCII makes http's HeaderValue::to_str fail: the whole header is skipped.
    expect(await sid("sid=ok; x=caf\u00e9")).toMatchObject({ message: "missing required cookie: sid" });
    expect(await sid("other=1")).toMatchObject({ code: "invalid_argument", message: "missing required cookie: sid" });
  });

  // cookie.rs parse_req reads each Cookie line apart (headers.get_all) and skips only a line that is not
  // visible ASCII; node joins the lines in req.headers.cookie, so they are read from rawHeaders.
  it("reads each Cookie header line apart, skipping only a line Encore cannot read", async () => {
    const { hostname, port } = new URL(app.baseUrl);
    const sid = (...lines: string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => {
          const head = ["GET /cookie HTTP/1.1", `Host: ${hostname}`, "Connection: close", ...lines.map((l) => `Cookie: ${l}`)];
          socket.end(Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"));
        });
        let text = "";
        socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
        socket.on("end", () => resolve(text.slice(text.indexOf("\r\n\r\n") + 4)));
        socket.on("error", reject);
      });
    expect(JSON.parse(await sid("sid=ok", "x=caf\u00e9")).value).toBe("ok");
    expect(JSON.parse(await sid("sid=first", "sid=second")).value).toBe("second");
  });

  // The cookie crate's Display (fmt_parameters) of the cookie api/pvalue.rs builds: no percent-encoding,
  // its attribute order, Secure implied by SameSite=None, one leading dot off the domain.
  it("writes a Cookie<> response field as Encore's Set-Cookie", async () => {
    const res = await call("/cookie", { headers: { Cookie: "sid=a b%20c" } });
    expect(res.headers.get("set-cookie")).toBe("echo=a b%20c; HttpOnly; SameSite=None; Secure; Path=/; Domain=example.com; Max-Age=60");
    expect(res.json).toEqual({ value: "a b%20c", fields: ["name", "value"] });
  });

  it("rejects a missing query field and a malformed number with invalid_argument", async () => {
    expect(await call("/echo/abc")).toMatchObject({
      status: 400,
      json: { code: "invalid_argument", message: "unable to decode query string: missing field q", details: null },
    });
    const bad = await call("/echo/abc?q=x&n=abc");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('unable to decode query string: n: invalid number: "abc"');
  });

  // The failing field's path first, as serde_path_to_error writes it (jsonschema/mod.rs `deserialize`;
  // e2e-tests/ts_app_test.go expects "message: length too short"), none for a missing top-level field,
  // and serde_json's position last: just past the value that failed (runtimes/core/src/api/schema/body.rs).
  it("applies encore.dev/validate rules with Encore's wording", async () => {
    const cases: [unknown, string][] = [
      [{ name: "ab", email: "a@b.co", count: 1 }, "name: length too short (got 2, expected at least 3) at line 1 column 12"],
      [{ name: "abcdefghijk", email: "a@b.co", count: 1 }, "name: length too long (got 11, expected at most 10) at line 1 column 21"],
      [{ name: "abc", email: "nope", count: 1 }, "email: value is not an email at line 1 column 28"],
      [{ name: "abc", email: "a@b.co", count: 9 }, "count: value must be at most 5 (got 9) at line 1 column 40"],
      [{ name: "abc", email: "a@b.co", count: 0 }, "count: value must be at least 1 (got 0) at line 1 column 40"],
      [{ name: "abc", email: "a@b.co", count: "1" }, 'count: invalid type: string "1", expected a number at line 1 column 42'],
      [{ name: "abc", email: "a@b.co" }, "missing field count at line 1 column 31"],
      [{ name: "abc", email: "a@b.co", count: 1, when: "yesterday" }, "when: invalid datetime: premature end of input at line 1 column 59"],
    ];
    for (const [body, message] of cases) {
      await expectErrorResponse(await post("/items", body), 400, {
        code: "invalid_argument",
        message: `unable to decode request body: ${message}`,
      });
    }
  });

  it("rejects an empty or non-JSON body", async () => {
    expect((await post("/items", "")).json.message).toBe("unable to decode request body: EOF while parsing a value at line 1 column 0");
    expect((await post("/items", "{oops")).json.message).toMatch(/^unable to decode request body: invalid JSON: /);
    expect((await post("/items", "[1]")).json.message).toBe(
      "unable to decode request body: invalid type: sequence, expected a JSON object at line 1 column 1",
    );
  });
});

describe("responses", () => {
  it("sends HttpStatus and Header<> fields as status and headers, not in the body; Dates as RFC 3339", async () => {
    const res = await post("/items", { name: "widget", email: "a@b.co", count: 2, when: "2026-03-04T05:06:07Z" });
    expect(res.status).toBe(201);
    expect(res.headers.get("location")).toBe("/items/widget");
    expect(res.json).toEqual({ id: "widget", when: "2026-03-04T05:06:07Z", year: 2026 });
  });

  it("sends an empty body for a void endpoint", async () => {
    const res = await post("/nothing", "");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("lets raw endpoints write their own status, headers and body", async () => {
    const res = await call("/raw/bob?x=1");
    expect(res.status).toBe(202);
    expect(res.headers.get("x-raw")).toBe("yes");
    expect(res.text).toBe("hello /raw/bob?x=1");
  });

  it("gives each of many concurrent requests its own metadata, also after a nested service call", async () => {
    // Pauses in reverse order, so the requests finish in another order than they started.
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const answers = await Promise.all(ids.map((id, i) => call(`/meta/${id}?pauseMs=${40 - i}`)));
    expect(answers.map((a) => a.json)).toEqual(ids.map((id) => ({ id, seen: id, endpoint: "whoseMeta" })));
  });
});

describe("errors", () => {
  // Encore's ErrCode::status_code (runtimes/core/src/api/error.rs), restated apart from the runtime's
  // statusByCode (runtime/wire/errors.ts) so that a wrong entry there fails here.
  const statuses: Record<string, number> = {
    canceled: 499,
    unknown: 500,
    invalid_argument: 400,
    deadline_exceeded: 504,
    not_found: 404,
    already_exists: 409,
    permission_denied: 403,
    resource_exhausted: 429,
    failed_precondition: 400,
    aborted: 409,
    out_of_range: 400,
    unimplemented: 501,
    internal: 500,
    unavailable: 503,
    data_loss: 500,
    unauthenticated: 401,
  };

  it.each(Object.entries(statuses))("APIError %s becomes HTTP %i with Encore's body", async (code, status) => {
    const res = await call(`/fail/${code}`);
    expect(res.headers.get("content-type")).toBe("application/json");
    const message = code === "internal" ? "an internal error occurred" : `failed with ${code}`;
    await expectErrorResponse(res, status, { code: code as ErrCode, message, details: { hint: code } });
  });

  it("hides a plain Error behind a 500 internal error", async () => {
    const res = await call("/fail/plain");
    await expectErrorResponse(res, 500, { code: "internal", message: "an internal error occurred" });
    expect(res.json.message).not.toContain("secret internals");
  });

  it("appends the cause's message as Encore does", async () => {
    await expectErrorResponse(await call("/fail/caused"), 404, { code: "not_found", message: "missing thing: db row 7" });
  });

  it("answers unknown routes, private endpoints and wrong methods with 404", async () => {
    await expectErrorResponse(await call("/no/such/route"), 404, { code: "not_found", message: "endpoint not found" });
    await expectErrorResponse(await call("/hidden"), 404, { code: "not_found", message: "endpoint not found" });
    const wrong = await call("/items", { method: "DELETE" });
    expect(wrong.status).toBe(404);
    expect(wrong.json.message).toBe("no route for method");
  });
});

describe("auth", () => {
  it("returns 401 with Encore's default message when no credentials are sent", async () => {
    expect(await call("/whoami")).toMatchObject({
      status: 401,
      json: {
        code: "unauthenticated",
        message: "the request does not have valid authentication credentials for the operation",
        details: null,
      },
    });
  });

  it("returns the handler's unauthenticated message for bad credentials", async () => {
    const res = await call("/whoami", { headers: { Authorization: "Bearer bad" } });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe("bad token");
  });

  it("passes auth data to the endpoint", async () => {
    expect((await call("/whoami", { headers: { Authorization: "Bearer good" } })).json).toEqual({ userID: "u1" });
  });

  it("passes a cookie credential to the handler as { name, value }", async () => {
    expect((await call("/whoami", { headers: { Cookie: "session=good" } })).json).toEqual({ userID: "u2" });
  });

  // contains_auth_params (api/auth/mod.rs): only a non-empty header, query or cookie value is a credential.
  it("does not run the handler for empty credentials", async () => {
    for (const headers of [{ Authorization: "" }, { Cookie: "session=" }] as Record<string, string>[]) {
      expect((await call("/whoami", { headers })).json.message).toBe(
        "the request does not have valid authentication credentials for the operation",
      );
    }
  });

  it("treats bad credentials on a public endpoint as none", async () => {
    expect((await call("/echo/x?q=1", { headers: { Authorization: "Bearer bad" } })).status).toBe(200);
  });

  it("fails even public endpoints when the auth handler throws a non-auth error, as Encore does", async () => {
    const res = await call("/echo/x?q=1", { headers: { Authorization: "Bearer boom" } });
    expect(res.status).toBe(500);
    expect(res.json.code).toBe("internal");
  });
});

describe("infrastructure", () => {
  it("calls a private endpoint of another service through ~encore/clients, Dates intact", async () => {
    expect((await call("/double/21")).json).toEqual({ n: 42, sameDate: true });
  });

  it("propagates a callee's validation error to the caller", async () => {
    const res = await call("/double/-1");
    expect(res.status).toBe(400);
    expect(res.json.message).toBe("unable to decode request body: n: value must be at least 0 (got -1)");
  });

  it("runs migrations and queries the database", async () => {
    const first = await post("/notes", { text: "one" });
    const second = await post("/notes", { text: "two" });
    expect(first.json.total).toBe(1);
    expect(second.json).toMatchObject({ total: 2 });
  });

  it("reads secrets from the environment", async () => {
    expect((await call("/secret")).json).toEqual({ length: 6 });
  });

  it("delivers published messages to subscriptions asynchronously, Dates revived", async () => {
    await post("/ping", { text: "hello" });
    await vi.waitFor(async () => {
      expect((await call("/pings")).json.received).toEqual([{ text: "hello", dateRevived: true }]);
    });
  });

  it("logs one line per request", async () => {
    await call("/echo/log?q=1");
    // The line is written once the response has gone out, so it may reach us just after it.
    await vi.waitFor(() => expect(app.output()).toMatch(/INF request method=GET path="\/echo\/log\?q=1" status=200 ms=\d/));
  });
});
