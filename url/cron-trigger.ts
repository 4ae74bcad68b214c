// POST /internal/cron/cleanup-stale-urls: how a self-hosted deployment runs the cleanup job.
//
// Encore's own cron scheduler exists only on Encore Cloud; a Docker image from `encore build docker`
// never runs cron jobs, and the job's endpoint (cleanupStaleUrls) is private, so the gateway cannot
// reach it. This exposed endpoint lets a host cron or a Kubernetes CronJob run it instead, and only
// with the shared secret CronTriggerToken: with the secret unset or too short, nobody can trigger it.
import { createHash, timingSafeEqual } from "node:crypto";
import { api, APIError, type Header } from "encore.dev/api";
import { secret } from "encore.dev/config";
import log from "encore.dev/log";
import { url } from "~encore/clients";
import type { CleanupResult } from "./cleanup";

const cronTriggerToken = secret("CronTriggerToken");

/** MIN_TOKEN_BYTES is the shortest CronTriggerToken that enables the trigger (as long as a SHA-256 key). */
export const MIN_TOKEN_BYTES = 32;

/** CronTriggerRequest carries the shared secret in a header, so it stays out of URLs and access logs. */
export interface CronTriggerRequest {
  token?: Header<"X-Cron-Token">;
}

/**
 * checkCronToken lets a call through only when the configured token is long enough and the presented
 * one equals it. An unconfigured trigger is permission_denied (no token can ever work); a missing or
 * wrong token is unauthenticated. Both are hashed first so the comparison takes the same time for any
 * input, whatever its length.
 */
export function checkCronToken(configured: string, presented: string | undefined): void {
  if (Buffer.byteLength(configured, "utf8") < MIN_TOKEN_BYTES) {
    throw APIError.permissionDenied("cron trigger is disabled: CronTriggerToken is not configured");
  }
  if (presented === undefined || !timingSafeEqual(sha256(configured), sha256(presented))) {
    throw APIError.unauthenticated("invalid cron token");
  }
}

/** triggerCleanupStaleUrls runs the cleanup-stale-urls cron job now, for an external scheduler. */
export const triggerCleanupStaleUrls = api(
  { expose: true, method: "POST", path: "/internal/cron/cleanup-stale-urls" },
  async ({ token }: CronTriggerRequest): Promise<CleanupResult> => {
    try {
      checkCronToken(configuredToken(), token);
    } catch (err) {
      // Refusals are rare and worth seeing: a misconfigured scheduler or someone probing.
      log.warn("refused cron trigger for cleanup-stale-urls", { reason: (err as APIError).message });
      throw err;
    }
    return url.cleanupStaleUrls();
  },
);

function configuredToken(): string {
  try {
    return cronTriggerToken();
  } catch {
    // Outside local development an unset secret throws instead of reading as "": both mean "disabled".
    return "";
  }
}

function sha256(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
