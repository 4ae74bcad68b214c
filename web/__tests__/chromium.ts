// Debian's Chromium through playwright-core (no browser download), with nothing of vitest, so that
// scripts (docs/screenshot.ts) launch it as the tests do. In __tests__ so Encore does not parse it.
import { chromium, type Browser } from "playwright-core";

/** The host name target links use; Chromium maps it to loopback (the API refuses loopback targets). */
export const TARGET_HOST = "target.test";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", `--host-resolver-rules=MAP ${TARGET_HOST} 127.0.0.1`],
  });
}
