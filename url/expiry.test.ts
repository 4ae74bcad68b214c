import { describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { describeLocal, expectAPIError, expectErrorResponse } from "../local/testing";
import { validateExpiry } from "./expiry";
import { serveApiForThisFile } from "./__tests__/helpers";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describe("validateExpiry", () => {
  it.each([
    ["a millisecond ahead", "2026-03-01T12:00:00.001Z"],
    ["exactly 5 years ahead", "2031-03-01T12:00:00.000Z"],
  ])("accepts %s", (_, when) => {
    expect(validateExpiry(new Date(when), NOW)).toEqual(new Date(when));
  });

  it.each([
    ["now", "2026-03-01T12:00:00.000Z", "expiresAt must be in the future"],
    ["the past", "2020-01-01T00:00:00.000Z", "expiresAt must be in the future"],
    ["a millisecond past 5 years", "2031-03-01T12:00:00.001Z", "expiresAt must be at most 5 years ahead"],
    ["an invalid date", "not a date", "expiresAt is not a valid time"],
  ])("refuses %s", async (_, when, message) => {
    await expectAPIError(
      Promise.resolve().then(() => validateExpiry(new Date(when), NOW)),
      ErrCode.InvalidArgument,
      message,
    );
  });
});

describeLocal("expiring links over HTTP", () => {
  const api = serveApiForThisFile(1);
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api.call(method, path, api.tokens[0], body, headers);

  it("returns expiresAt from POST /shorten only when one was set", async () => {
    const expiresAt = new Date(Date.now() + 24 * 3600 * 1000);
    const resp = await call("POST", "/shorten", { url: "https://example.com/tomorrow", expiresAt: expiresAt.toISOString() });
    expect(resp.status).toBe(200);
    const body = (await resp.json()) as { expiresAt: string };
    expect(new Date(body.expiresAt).getTime()).toBe(expiresAt.getTime());
    const lasting = await (await call("POST", "/shorten", { url: "https://example.com/forever" })).json();
    expect(lasting).not.toHaveProperty("expiresAt");
  });

  it.each([
    ["in the past", new Date(Date.now() - 60_000).toISOString(), "expiresAt must be in the future"],
    ["more than 5 years ahead", new Date(Date.now() + 6 * 366 * 24 * 3600 * 1000).toISOString(), "expiresAt must be at most 5 years ahead"],
  ])("refuses an expiry %s with 400", async (_, expiresAt, message) => {
    const resp = await call("POST", "/shorten", { url: "https://example.com/refused", expiresAt });
    await expectErrorResponse(resp, 400, { code: "invalid_argument", message });
  });

  it("refuses an expiry that is not an RFC 3339 time with 400", async () => {
    const resp = await call("POST", "/shorten", { url: "https://example.com/refused", expiresAt: "tomorrow" });
    expect(resp.status).toBe(400);
    expect(await resp.json()).toMatchObject({ code: "invalid_argument" });
  });

  // Encore decodes a datetime with chrono's parse_from_rfc3339 (runtimes/core/src/api/jsonschema/de.rs),
  // which refuses a day that does not exist, where a JavaScript Date would roll 30 February over to
  // 2 March; the message names the field and ends with serde_json's position, just past the value.
  it("refuses a day that does not exist with Encore's message and stores nothing, on POST /shorten and PATCH /urls/:code", async () => {
    const shorten = await call("POST", "/shorten", { url: "https://example.com/feb-30", expiresAt: "2027-02-30T00:00:00Z" });
    await expectErrorResponse(shorten, 400, {
      code: "invalid_argument",
      message: "unable to decode request body: expiresAt: invalid datetime: input is out of range at line 1 column 70",
    });

    const { code } = (await (await call("POST", "/shorten", { url: "https://example.com/feb-30" })).json()) as { code: string };
    // PATCH's expiresAt is `Date | null`: de.rs tries both alternatives and names them.
    const patch = await call("PATCH", `/urls/${code}`, { expiresAt: "2027-02-30T00:00:00Z" });
    await expectErrorResponse(patch, 400, {
      code: "invalid_argument",
      message:
        'unable to decode request body: expiresAt: invalid type: string "2027-02-30T00:00:00Z", expected a datetime string or null at line 1 column 35',
    });
    const { urls } = (await (await call("GET", "/urls")).json()) as { urls: { code: string; expiresAt: string | null }[] };
    expect(urls.find((u) => u.code === code)?.expiresAt).toBeNull();
    expect(urls.some((u) => u.code !== code && u.expiresAt?.startsWith("2027-03-02"))).toBe(false);
  });

  it("resolves a link until the instant it expires, then answers URL has expired and counts nothing", async () => {
    const expiresAt = new Date(Date.now() + 2000);
    const created = await call("POST", "/shorten", { url: "https://example.com/flash-sale", expiresAt: expiresAt.toISOString() });
    expect(created.status).toBe(200);
    const { code } = (await created.json()) as { code: string };

    const live = await call("GET", `/${code}`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ url: "https://example.com/flash-sale" });

    await new Promise((resolve) => setTimeout(resolve, expiresAt.getTime() - Date.now() + 50));
    const expired = { code: "not_found", message: "URL has expired" } as const;
    await expectErrorResponse(await call("GET", `/${code}`, undefined, { Accept: "application/json" }), 404, expired);
    const page = await call("GET", `/${code}`, undefined, { Accept: "text/html" });
    expect({ status: page.status, expired: (await page.text()).includes("This link has expired") }).toEqual({ status: 404, expired: true });
    const head = await call("HEAD", `/${code}`);
    expect(head.status).toBe(404);
    const stats = await call("GET", `/${code}/stats`);
    await expectErrorResponse(stats, 404, expired);

    const history = (await (await call("GET", `/urls/${code}/clicks?days=1`)).json()) as { total: number };
    expect(history.total).toBe(1);
  });
});
