import { randomInt, randomUUID } from "node:crypto";
import diagnostics_channel from "node:diagnostics_channel";
import { afterEach, describe, expect, it, vi } from "vitest";
import { url } from "~encore/clients";
import {
  captureLogs,
  describeLocal,
  drainTopic,
  redeliveryWarning,
  duplicateNextMessage,
  setRetryBackoffScale,
  singleConnectionDatabase,
} from "../local/testing";
import { BATCH_CHANNEL, type BatchMessage } from "../lib/group-commit";
import { urlShortened } from "../url/topic";
import { db } from "./db";
import { utcDay } from "../lib/utc-day";
import { countLinks, trackShortened, type CreatedLink } from "./track";
import { codesCountedOn, countedDays, countOn, dayLedger, newEvent, privateMidnight, timesCounted } from "./__tests__/helpers";

/** Counts the deliveries that reach the handler's batches (their sizes, as lib/group-commit.ts announces them). */
function countedDeliveries(): { stop: () => number } {
  let items = 0;
  const onMessage = (m: unknown) => {
    const message = m as BatchMessage;
    if (message.name === "analytics" && message.event === "start") items += message.size;
  };
  diagnostics_channel.subscribe(BATCH_CHANNEL, onMessage);
  return { stop: () => (diagnostics_channel.unsubscribe(BATCH_CHANNEL, onMessage), items) };
}

/** A caller of its own: tests share one database per run. */
const user = { userID: String(randomInt(1e9, 2 ** 47)), email: `${randomUUID()}@example.com` };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("trackShortened", () => {
  it("counts a new link on its UTC day", async () => {
    const event = newEvent(new Date(privateMidnight().getTime() + 12 * 3600_000));
    const day = utcDay(event.timestamp);

    await trackShortened(event);

    expect(await countOn(day)).toBe(1);
    expect(await timesCounted(event.code)).toBe(1);
  });

  it("counts the same event delivered twice once", async () => {
    const event = newEvent(privateMidnight());
    const day = utcDay(event.timestamp);

    await trackShortened(event);
    await trackShortened({ ...event });

    expect(await countOn(day)).toBe(1);
    expect(await timesCounted(event.code)).toBe(1);
  });

  it("counts two copies delivered concurrently once", async () => {
    const day = utcDay(privateMidnight());
    const events = Array.from({ length: 5 }, () => newEvent(new Date(`${day}T08:00:00.000Z`)));

    // Each event twice at the same time, all ten in flight together.
    await Promise.all(events.flatMap((e) => [trackShortened(e), trackShortened({ ...e })]));

    expect(await countOn(day)).toBe(5);
    for (const e of events) expect(await timesCounted(e.code)).toBe(1);
    expect(await dayLedger(day)).toEqual({ stats: 5, counted: 5 });
  });

  it("puts 23:59:59.999Z and 00:00:00.000Z on different days", async () => {
    const midnight = privateMidnight();
    const before = newEvent(new Date(midnight.getTime() - 1));
    const after = newEvent(midnight);
    const dayBefore = utcDay(before.timestamp);
    const dayAfter = utcDay(after.timestamp);
    expect(before.timestamp.toISOString()).toMatch(/T23:59:59\.999Z$/);
    expect(after.timestamp.toISOString()).toMatch(/T00:00:00\.000Z$/);

    await trackShortened(before);
    await trackShortened(after);

    expect(await countedDays([before.code, after.code])).toEqual(
      new Map([
        [before.code, dayBefore],
        [after.code, dayAfter],
      ]),
    );
    expect(await countOn(dayBefore)).toBe(1);
    expect(await countOn(dayAfter)).toBe(1);
  });

  it("counts a code again when a later link reuses it (a code freed by deletion)", async () => {
    const first = newEvent(privateMidnight());
    const reused = { ...first, timestamp: new Date(first.timestamp.getTime() + 90 * 86_400_000) };

    await trackShortened(first);
    await trackShortened(reused);

    expect(await timesCounted(first.code)).toBe(2);
    expect(await countOn(utcDay(first.timestamp))).toBe(1);
    expect(await countOn(utcDay(reused.timestamp))).toBe(1);
  });

  it("rejects when the database fails, counting nothing, so the runtime redelivers", async () => {
    const event = newEvent(privateMidnight());
    vi.spyOn(db, "exec").mockRejectedValueOnce(new Error("connection reset"));

    await expect(trackShortened(event)).rejects.toThrow("connection reset");

    expect(await timesCounted(event.code)).toBe(0);
    await trackShortened(event);
    expect(await countOn(utcDay(event.timestamp))).toBe(1);
  });

  it("counts concurrent deliveries in one statement: links of two days, copies among them, each once", async () => {
    const midnight = privateMidnight();
    const late = Array.from({ length: 4 }, () => newEvent(new Date(midnight.getTime() - 1000)));
    const early = Array.from({ length: 3 }, () => newEvent(new Date(midnight.getTime() + 1000)));
    const statements = vi.spyOn(db, "exec");

    await Promise.all([...late, ...early, late[0], early[2], { ...late[0] }].map((e) => trackShortened(e)));

    // Only this test's statements: the relay may deliver another test's leftover meanwhile.
    const codes = new Set([...late, ...early].map((e) => e.code));
    const mine = statements.mock.calls.filter(([, batchCodes]) => (batchCodes as string[]).some((c) => codes.has(c)));
    expect(mine).toHaveLength(1);
    // The codes first, so that a failure names any link on these days that is not this test's.
    for (const links of [late, early]) {
      const day = utcDay(links[0].timestamp);
      expect(await codesCountedOn(day)).toEqual(links.map((e) => e.code).sort());
      expect(await dayLedger(day)).toEqual({ stats: links.length, counted: links.length });
    }
  });

  it("records no link of a batch whose increment fails in the same statement, and their retries count each once", async () => {
    const day = utcDay(privateMidnight());
    const events = Array.from({ length: 3 }, () => newEvent(new Date(`${day}T09:00:00.000Z`)));
    // The daily_stats write fails inside the database, after the statement has recorded the links.
    const name = `fail_${randomUUID().replaceAll("-", "")}`;
    await db.rawExec(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'increment failed'; END $$`);
    await db.rawExec(
      `CREATE TRIGGER ${name} BEFORE INSERT OR UPDATE ON daily_stats FOR EACH ROW WHEN (NEW.date = '${day}') EXECUTE FUNCTION ${name}()`,
    );
    try {
      const first = await Promise.allSettled(events.map((e) => trackShortened(e)));
      expect(first.map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(String((first[0] as PromiseRejectedResult).reason)).toContain("increment failed");
      expect(await dayLedger(day)).toEqual({ stats: 0, counted: 0 });
    } finally {
      await db.rawExec(`DROP TRIGGER ${name} ON daily_stats`);
      await db.rawExec(`DROP FUNCTION ${name}()`);
    }

    await Promise.all(events.map((e) => trackShortened(e)));
    expect(await dayLedger(day)).toEqual({ stats: 3, counted: 3 });
  });

  it("counts overlapping batches (as from several instances) once per link, without deadlocking", async () => {
    const midnight = privateMidnight();
    const links: CreatedLink[] = Array.from({ length: 40 }, (_, i) => {
      const event = newEvent(new Date(midnight.getTime() + (i % 2 === 0 ? -1000 : 1000)));
      return { code: event.code, createdAt: event.timestamp.toISOString(), day: utcDay(event.timestamp) };
    });
    const shuffled = () => [...links].sort(() => Math.random() - 0.5);

    await Promise.all([countLinks(shuffled()), countLinks(shuffled().slice(10)), countLinks(shuffled().slice(0, 30))]);

    expect(await dayLedger(links[0].day)).toEqual({ stats: 20, counted: 20 });
    expect(await dayLedger(links[1].day)).toEqual({ stats: 20, counted: 20 });
  });

  it("rejects an event without a valid timestamp instead of guessing its day", async () => {
    const event = newEvent(new Date(Number.NaN));
    await expect(trackShortened(event)).rejects.toThrow(/expected a valid Date/);
    expect(await timesCounted(event.code)).toBe(0);
  });
});

/** Shortens n links through the generated client (validation and auth data as over HTTP). */
async function shortenMany(n: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const { code } = await url.shorten({ url: `https://example.com/analytics/${i}` }, { authData: user });
    codes.push(code);
  }
  return codes;
}

/**
 * Checks that every code was counted once on `today` and that the day's count rose by exactly
 * the links counted on it: n when this process is the only writer (PGlite per test process),
 * more only if another test file counted links today in a shared database.
 */
async function expectCountedToday(codes: string[], today: string, before: { stats: number; counted: number }) {
  const days = await countedDays(codes);
  expect([...days.values()]).toEqual(codes.map(() => today));
  for (const code of codes) expect(await timesCounted(code)).toBe(1);
  const after = await dayLedger(today);
  expect(after.stats).toBe(after.counted);
  expect(after.stats - before.stats).toBe(after.counted - before.counted);
  expect(after.stats - before.stats).toBeGreaterThanOrEqual(codes.length);
  // Embedded PGlite is fresh per test process: no other test file wrote to this day.
  if (singleConnectionDatabase) expect(after.stats - before.stats).toBe(codes.length);
}

describe("end to end", () => {
  it("counts N shortened links on today's row once delivered", async () => {
    const today = utcDay(new Date());
    const before = await dayLedger(today);

    const codes = await shortenMany(3);
    await vi.waitFor(async () => expect((await countedDays(codes)).size).toBe(codes.length), { timeout: 30_000, interval: 100 });

    await expectCountedToday(codes, today, before);
  });
});

describeLocal("delivery on the local runtime", () => {
  afterEach(async () => {
    await setRetryBackoffScale(1);
  });

  it("shorten N links, drain the topic, the day's count rose by N", async () => {
    const today = utcDay(new Date());
    const before = await dayLedger(today);

    const codes = await shortenMany(4);
    await drainTopic("url-shortened");

    await expectCountedToday(codes, today, before);
  });

  it("counts a message delivered twice once", async () => {
    const event = newEvent(privateMidnight());
    await duplicateNextMessage("url-shortened", { copies: 2, concurrent: false });

    await urlShortened.publish(event);
    await drainTopic("url-shortened");

    expect(await dayLedger(utcDay(event.timestamp))).toEqual({ stats: 1, counted: 1 });
  });

  it("counts copies delivered concurrently once", async () => {
    const event = newEvent(privateMidnight());
    const counted = countedDeliveries();
    await duplicateNextMessage("url-shortened", { copies: 3, concurrent: true });

    await urlShortened.publish(event);
    await drainTopic("url-shortened");

    expect(counted.stop()).toBe(3);
    expect(await dayLedger(utcDay(event.timestamp))).toEqual({ stats: 1, counted: 1 });
  });

  it("retries a handler that failed once and counts the link once", async () => {
    await setRetryBackoffScale(0.001);
    const event = newEvent(privateMidnight());
    const statements = vi.spyOn(db, "exec").mockRejectedValueOnce(new Error("connection reset"));
    const logs = captureLogs(redeliveryWarning("track-analytics", "connection reset"));

    await urlShortened.publish(event);
    await drainTopic("url-shortened");

    expect(statements).toHaveBeenCalledTimes(2);
    expect(logs.lines).toHaveLength(1);
    expect(await dayLedger(utcDay(event.timestamp))).toEqual({ stats: 1, counted: 1 });
  });

  it("receives the link's timestamp as published, to the millisecond", async () => {
    const event = newEvent(new Date(privateMidnight().getTime() + 1234));

    await urlShortened.publish(event);
    await drainTopic("url-shortened");

    const row = await db.queryRow<{ created_at: Date }>`SELECT created_at FROM counted_urls WHERE code = ${event.code}`;
    expect(row?.created_at).toBeInstanceOf(Date);
    expect(row?.created_at.toISOString()).toBe(event.timestamp.toISOString());
  });
});
