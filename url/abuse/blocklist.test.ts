import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { captureLogs } from "../../local/testing";
import { newUser, shortenAs } from "../__tests__/helpers";
import { db } from "../db";
import { normalizeHost, readBlocklistFile, syncBlocklistFile } from "./blocklist";

describe("BLOCKLIST_FILE", () => {
  // One scratch folder for the file's lists, removed with it so a run leaves nothing in the temp folder.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "blocklist-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("reads one host a line, skipping comments, blank lines and lines that are no host", () => {
    const file = path.join(scratch, "comments.txt");
    fs.writeFileSync(
      file,
      "# known phishing\nEvil.Example\n\n*.wild.example  # and its subdomains\nnot a host\nhttp://x/y\nevil.example\n",
    );
    const skipped = (line: number) => ({
      level: "WRN" as const,
      msg: "BLOCKLIST_FILE: skipping a line that is not a host name",
      fields: { line },
    });
    captureLogs(skipped(5), skipped(6));
    expect(readBlocklistFile(file)).toEqual(["evil.example", "wild.example"]);
  });

  it.each([
    ["EXAMPLE.com", "example.com"],
    [".example.com", "example.com"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["a b", null],
    ["example.com/path", null],
    ["user@example.com", null],
    ["", null],
  ])("normalizes %j to %j", (raw, host) => {
    expect(normalizeHost(raw)).toBe(host);
  });

  it("makes the file's hosts the file rows of the blocklist and disables the links to them at each sync", async () => {
    const user = newUser();
    const tag = Math.random().toString(36).slice(2, 8);
    const doomed = await shortenAs(user, `https://login.bad-${tag}.example/`);
    const kept = await shortenAs(user, `https://good-${tag}.example/`);
    const file = path.join(scratch, "hosts.txt");
    fs.writeFileSync(file, `bad-${tag}.example\nother-${tag}.example\n`);

    expect(await syncBlocklistFile(file)).toEqual({ hosts: 2, linksDisabled: 1 });
    const state = async (code: string) =>
      (await db.queryRow<{ disabled: boolean }>`SELECT disabled_at IS NOT NULL AS disabled FROM urls WHERE code = ${code}`)!.disabled;
    expect(await state(doomed.code)).toBe(true);
    expect(await state(kept.code)).toBe(false);

    fs.writeFileSync(file, `bad-${tag}.example\n`);
    expect(await syncBlocklistFile(file)).toEqual({ hosts: 1, linksDisabled: 0 });
    const rows = await db.queryAll<{ host: string }>`SELECT host FROM blocked_hosts WHERE host LIKE ${`%-${tag}.example`} ORDER BY host`;
    expect(rows.map((r) => r.host)).toEqual([`bad-${tag}.example`]);
  });
});
