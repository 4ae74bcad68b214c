import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeJson, encodeJson } from "../wire/value-codec";
import { Broker } from "./broker";
import { FileJournal } from "./journal";
import { testSubscription, testTopic as topic } from "./testkit";

const subs = ["track-analytics", "audit"].map((name) =>
  testSubscription(name, { messageRetentionMs: 86_400_000, minBackoffMs: 1, maxBackoffMs: 1, maxRetries: 1 }),
);
const at = new Date("2024-03-01T12:00:00Z");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A broker as one `npm start` run has it, journaling in `dir`. */
function run(dir: string, declared = subs) {
  const warnings: string[] = [];
  const broker = new Broker({
    model: () => ({ topics: [topic], subscriptions: declared }),
    encode: encodeJson,
    decode: decodeJson,
    log: { warn: (msg) => void warnings.push(msg), error: (msg) => void warnings.push(msg) },
    journal: new FileJournal(dir),
  });
  return { broker, warnings };
}

function codesDelivered(broker: Broker, sub: string): string[] {
  const codes: string[] = [];
  void broker.subscribe(topic.name, sub, (req) => void codes.push((req.payload() as { code: string }).code));
  return codes;
}

describe("the Pub/Sub journal", () => {
  it("delivers after a restart what one run published but did not hand to every subscription", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "faults-journal-"));
    dirs.push(dir);
    const first = run(dir);
    const handled = codesDelivered(first.broker, "track-analytics");
    await first.broker.publish(topic.name, { code: "abc123", timestamp: at }, null);
    // "audit" is never subscribed in this run, so the topic never drains.
    await expect(first.broker.testHooks.drain("url-shortened", 50)).rejects.toThrow(/"audit".*never subscribed/);
    expect(handled).toEqual(["abc123"]);

    const second = run(dir);
    const audit = codesDelivered(second.broker, "audit");
    const tracked = codesDelivered(second.broker, "track-analytics");
    await second.broker.testHooks.drain();
    expect(audit).toEqual(["abc123"]);
    expect(tracked).toEqual([]);

    expect(new FileJournal(dir).pending()).toEqual([]);
  });

  it("skips a torn last line and drops messages for subscriptions no longer declared", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "faults-journal-"));
    dirs.push(dir);
    await run(dir).broker.publish(topic.name, { code: "def456", timestamp: at }, null);
    fs.appendFileSync(path.join(dir, "undelivered.ndjson"), '{"published":{"id":"x","to');
    const onlyAudit = run(dir, [subs[1]]);
    expect(onlyAudit.warnings).toEqual(["dropping an undelivered message: its subscription is no longer declared"]);
    const audit = codesDelivered(onlyAudit.broker, "audit");
    await onlyAudit.broker.testHooks.drain();
    expect(audit).toEqual(["def456"]);
    expect(new FileJournal(dir).pending()).toEqual([]);
  });
});
