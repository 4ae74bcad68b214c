import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { APIError, ErrCode } from "encore.dev/api";
import { captureLogs, describeLocal, expectErrorResponse, useTestServer } from "../local/testing";
import { checkCronToken, MIN_TOKEN_BYTES } from "./cron-trigger";
import { randomCode } from "./code";
import { db } from "./db";
import { holdCleanupTurnForThisFile } from "./__tests__/helpers";

// The secret is read when the endpoint's module loads, so it is set before any import runs.
const TOKEN = vi.hoisted(() => {
  const token = "cron-test-" + Math.random().toString(36).slice(2).padEnd(40, "x");
  vi.stubEnv("CronTriggerToken", token);
  return token;
});

function refusal(configured: string, presented: string | undefined): APIError {
  try {
    checkCronToken(configured, presented);
  } catch (err) {
    expect(err).toBeInstanceOf(APIError);
    return err as APIError;
  }
  throw new Error("expected checkCronToken to refuse");
}

describe("checkCronToken", () => {
  const configured = randomBytes(32).toString("hex");

  it("is disabled when the secret is unset or shorter than 32 bytes, whatever is presented", () => {
    for (const [secret, presented] of [
      ["", ""],
      ["", undefined],
      ["short", "short"],
      ["x".repeat(MIN_TOKEN_BYTES - 1), "x".repeat(MIN_TOKEN_BYTES - 1)],
    ] as const) {
      const err = refusal(secret, presented);
      expect(err.code).toBe(ErrCode.PermissionDenied);
      expect(err.message).toBe("cron trigger is disabled: CronTriggerToken is not configured");
    }
  });

  it("refuses a missing, empty, wrong, truncated or extended token", () => {
    for (const presented of [undefined, "", configured.toUpperCase(), configured.slice(1), configured + "x", `${configured} `]) {
      const err = refusal(configured, presented);
      expect(err.code).toBe(ErrCode.Unauthenticated);
      expect(err.message).toBe("invalid cron token");
    }
  });

  it("accepts exactly the configured token", () => {
    expect(() => checkCronToken(configured, configured)).not.toThrow();
    expect(() => checkCronToken("y".repeat(MIN_TOKEN_BYTES), "y".repeat(MIN_TOKEN_BYTES))).not.toThrow();
  });
});

describeLocal("POST /internal/cron/cleanup-stale-urls over HTTP", () => {
  const server = useTestServer();
  holdCleanupTurnForThisFile();

  afterAll(async () => {
    vi.unstubAllEnvs();
  });

  /** insertStaleLink stores a never-clicked link created 100 days ago, which the cleanup must remove. */
  async function insertStaleLink(): Promise<string> {
    const code = randomCode();
    await db.exec`
      INSERT INTO urls (code, original_url, created_at)
      VALUES (${code}, ${"https://example.com/stale/" + code}, NOW() - INTERVAL '100 days')`;
    return code;
  }

  async function exists(code: string): Promise<boolean> {
    return (await db.queryRow`SELECT 1 AS one FROM urls WHERE code = ${code}`) !== null;
  }

  function trigger(headers: Record<string, string>): Promise<Response> {
    return fetch(`${server.baseUrl}/internal/cron/cleanup-stale-urls`, { method: "POST", headers });
  }

  it.each([
    ["no X-Cron-Token header", {}],
    ["an empty token", { "X-Cron-Token": "" }],
    ["a wrong token", { "X-Cron-Token": "nope" }],
    ["the token with one character changed", { "X-Cron-Token": TOKEN.slice(0, -1) + "y" }],
  ])("refuses %s with 401 and runs nothing", async (_name, headers) => {
    const code = await insertStaleLink();
    captureLogs({ level: "WRN", msg: "refused cron trigger for cleanup-stale-urls", fields: { reason: "invalid cron token" } });
    await expectErrorResponse(await trigger(headers), 401, { code: "unauthenticated", message: "invalid cron token" });
    expect(await exists(code)).toBe(true);
  });

  it("runs the cleanup with the right token", async () => {
    const stale = await insertStaleLink();
    const resp = await trigger({ "X-Cron-Token": TOKEN });
    expect(resp.status).toBe(200);
    const body = (await resp.json()) as { deleted: number };
    expect(Object.keys(body)).toEqual(["deleted"]);
    expect(body.deleted).toBeGreaterThanOrEqual(1);
    expect(await exists(stale)).toBe(false);
  });

  it("keeps the job's own endpoint private", async () => {
    const resp = await fetch(`${server.baseUrl}/url.cleanupStaleUrls`, { method: "POST", body: "{}" });
    expect(resp.status).toBe(404);
  });

  it("answers only POST", async () => {
    const resp = await fetch(`${server.baseUrl}/internal/cron/cleanup-stale-urls`, { headers: { "X-Cron-Token": TOKEN } });
    expect(resp.status).toBe(404);
  });
});
