import { describe, expect, it } from "vitest";
import { ErrCode } from "encore.dev/api";
import { describeLocal, expectAPIError, expectErrorResponse } from "../local/testing";
import { isLinkCode, validateAlias } from "./alias";
import { serveApiForThisFile } from "./__tests__/helpers";

/** An alias no other test or run uses (tests share one database per run). */
function freshAlias(stem: string): string {
  return `${stem}-${Math.random().toString(36).slice(2, 10)}`;
}

describe("isLinkCode", () => {
  it("accepts generated codes and aliases, and nothing a link could not be named", () => {
    for (const s of ["abc123", "My_Link-2025", "x".repeat(64)]) expect(isLinkCode(s)).toBe(true);
    for (const s of ["", "ab", "x".repeat(65), "abc12 ", "../../", "a.b.c", "%2e%2e"]) expect(isLinkCode(s)).toBe(false);
  });
});

describe("validateAlias", () => {
  it.each(["abc", "My_Link-2025", "x".repeat(64)])("accepts %s", (alias) => {
    expect(validateAlias(alias)).toBe(alias);
  });

  it.each(["ab", "x".repeat(65), "has space", "dots.not.allowed", "ümlaut", "slash/y", ""])("refuses %j", async (alias) => {
    await expectAPIError(
      Promise.resolve().then(() => validateAlias(alias)),
      ErrCode.InvalidArgument,
      /^alias must be 3 to 64 characters/,
    );
  });

  it.each(["shorten", "urls", "Urls", "analytics", "auth", "internal", "api"])("refuses the reserved %s", async (alias) => {
    await expectAPIError(
      Promise.resolve().then(() => validateAlias(alias)),
      ErrCode.InvalidArgument,
      `alias "${alias}" is reserved`,
    );
  });
});

describeLocal("aliases over HTTP", () => {
  const api = serveApiForThisFile(2);
  const { call } = api;

  it("creates a link under the alias, resolves it and reports its stats", async () => {
    const alias = freshAlias("Launch_2025");
    const created = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/launch", alias });
    expect(created.status).toBe(200);
    const body = (await created.json()) as { code: string; shortUrl: string; qrCodeUrl: string };
    expect(body.code).toBe(alias);
    expect(body.shortUrl).toBe(`${api.baseUrl}/${alias}`);
    expect(body.qrCodeUrl).toMatch(new RegExp(`/${alias}\\.png$`));
    const qr = await fetch(body.qrCodeUrl);
    expect(qr.status).toBe(200);
    expect(qr.headers.get("content-type")).toBe("image/png");
    expect((await qr.arrayBuffer()).byteLength).toBeGreaterThan(0);

    expect(await (await call("GET", `/${alias}`)).json()).toEqual({ url: "https://example.com/launch" });
    expect(await (await call("GET", `/${alias}/stats`)).json()).toEqual({
      code: alias,
      originalUrl: "https://example.com/launch",
      clicks: 1,
    });
  });

  it("matches aliases case-sensitively", async () => {
    const alias = freshAlias("CaseMatters");
    expect((await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/upper", alias })).status).toBe(200);
    const lower = await call("GET", `/${alias.toLowerCase()}`);
    expect(lower.status).toBe(404);
    const other = await call("POST", "/shorten", api.tokens[1], { url: "https://example.com/lower", alias: alias.toLowerCase() });
    expect(other.status).toBe(200);
    expect(await (await call("GET", `/${alias}`)).json()).toEqual({ url: "https://example.com/upper" });
    expect(await (await call("GET", `/${alias.toLowerCase()}`)).json()).toEqual({ url: "https://example.com/lower" });
  });

  it("answers 409 already_exists for a taken alias and leaves the first link alone", async () => {
    const alias = freshAlias("taken");
    expect((await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/first", alias })).status).toBe(200);
    for (const token of [api.tokens[0], api.tokens[1]]) {
      const clash = await call("POST", "/shorten", token, { url: "https://example.com/second", alias });
      await expectErrorResponse(clash, 409, { code: "already_exists", message: "alias is already taken" });
    }
    expect(await (await call("GET", `/${alias}/stats`)).json()).toMatchObject({ originalUrl: "https://example.com/first" });
  });

  it.each(["shorten", "urls", "Auth", "analytics", "internal"])("refuses the reserved alias %s with 400", async (alias) => {
    const resp = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/reserved", alias });
    await expectErrorResponse(resp, 400, { code: "invalid_argument", message: `alias "${alias}" is reserved` });
  });

  it.each(["ab", "x".repeat(65), "no spaces", "no.dots", "ünï"])("refuses the malformed alias %j with 400", async (alias) => {
    const resp = await call("POST", "/shorten", api.tokens[0], { url: "https://example.com/malformed", alias });
    expect(resp.status).toBe(400);
    // Encore names the field, then the rule's message and serde_json's position in the body.
    expect(await resp.json()).toMatchObject({
      code: "invalid_argument",
      message: expect.stringMatching(/^unable to decode request body: alias: .+ at line 1 column \d+$/),
    });
  });
});
