import { afterEach, describe, expect, it, vi } from "vitest";
import { url } from "~encore/clients";
import { db } from "./db";
import { publishQueued, relayOutbox, type QueuedEvent } from "./outbox";
import { urlShortened } from "./topic";
import { captureLogs } from "../local/testing";
import { newUser, shortenAs } from "./__tests__/helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

async function outboxRows(code: string): Promise<{ code: string; created_at: Date }[]> {
  return db.queryAll<{ code: string; created_at: Date }>`SELECT code, created_at FROM url_shortened_outbox WHERE code = ${code}`;
}

/** Writes an event row the way url/shorten.ts does, without a link. */
async function queueEvent(code: string, originalUrl: string): Promise<QueuedEvent> {
  const row = await db.queryRow<{ id: number; created_at: Date }>`
    INSERT INTO url_shortened_outbox (code, original_url, created_at) VALUES (${code}, ${originalUrl}, now())
    RETURNING id, created_at`;
  return { id: row!.id, event: { code, originalUrl, timestamp: row!.created_at } };
}

/** Calls of the spy for one code: the relay may publish other tests' leftovers meanwhile. */
function callsFor(publish: { mock: { calls: [{ code: string }][] } }, code: string) {
  return publish.mock.calls.filter(([e]) => e.code === code).map(([e]) => e);
}

describe("the url-shortened outbox", () => {
  it("removes a link's event row once it is published", async () => {
    const publish = vi.spyOn(urlShortened, "publish");
    const link = await shortenAs(newUser(), "https://example.com/outbox/published");
    expect(callsFor(publish, link.code)).toHaveLength(1);
    expect(await outboxRows(link.code)).toEqual([]);
  });

  it("removes the rows of events published together in one statement", async () => {
    const codes = Array.from({ length: 6 }, (_, i) => `tgthr${i}${Date.now() % 1000}`);
    const queued = await Promise.all(codes.map((code) => queueEvent(code, "https://example.com/together")));
    // The broker acknowledges all six at once, so their removals queue together.
    let acknowledge!: () => void;
    const acknowledged = new Promise<string>((resolve) => (acknowledge = () => resolve("message-id")));
    vi.spyOn(urlShortened, "publish").mockReturnValue(acknowledged);
    const exec = vi.spyOn(db, "exec");
    const published = Promise.all(queued.map((q) => publishQueued(q)));
    acknowledge();
    expect(await published).toEqual(Array(6).fill(true));
    // Only this test's statements: the relay may remove another test's leftover meanwhile.
    const ids = new Set(queued.map((q) => q.id));
    expect(exec.mock.calls.filter(([, batchIds]) => (batchIds as number[]).some((id) => ids.has(id)))).toHaveLength(1);
    for (const code of codes) expect(await outboxRows(code)).toEqual([]);
  });

  it("keeps the event of a failed publish until the relay publishes it, with the link's own timestamp", async () => {
    const publish = vi.spyOn(urlShortened, "publish").mockRejectedValueOnce(new Error("broker unreachable"));
    captureLogs({
      level: "WRN",
      msg: "could not publish url-shortened; the outbox relay will publish it later",
      fields: { err: "broker unreachable" },
    });
    const link = await shortenAs(newUser(), "https://example.com/outbox/later");
    const [left] = await outboxRows(link.code);
    const stored = await db.queryRow<{ created_at: Date }>`SELECT created_at FROM urls WHERE code = ${link.code}`;
    expect(left.created_at).toEqual(stored!.created_at);

    expect(await relayOutbox(0)).toBeGreaterThanOrEqual(1);
    const relayed = callsFor(publish, link.code);
    expect(relayed).toHaveLength(2);
    expect(relayed[1]).toEqual({ code: link.code, originalUrl: "https://example.com/outbox/later", timestamp: stored!.created_at });
    expect(await outboxRows(link.code)).toEqual([]);
  });

  it("leaves fresh rows to the request that wrote them", async () => {
    const code = `fresh${Date.now() % 10}`;
    const queued = await queueEvent(code, "https://example.com/fresh");
    const publish = vi.spyOn(urlShortened, "publish");
    await relayOutbox(60);
    expect(callsFor(publish, code)).toEqual([]);
    await db.exec`DELETE FROM url_shortened_outbox WHERE id = ${queued.id}`;
  });

  it("writes no event when the code is taken: the clash stores neither row", async () => {
    // A row that holds the code but has no image, so the upload succeeds and the insert is what clashes.
    const code = `taken-${Date.now()}`;
    await db.exec`INSERT INTO urls (code, original_url) VALUES (${code}, 'https://example.com/outbox/first')`;
    const publish = vi.spyOn(urlShortened, "publish");
    await expect(url.shorten({ url: "https://example.com/outbox/second", alias: code }, { authData: newUser() })).rejects.toThrow(
      /already taken/,
    );
    expect(callsFor(publish, code)).toEqual([]);
    expect(await outboxRows(code)).toEqual([]);
    await db.exec`DELETE FROM urls WHERE code = ${code}`;
  });
});
