import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import log from "encore.dev/log";
import { describeLocal, runCronJob, itOnServer } from "../local/testing";
import { qrCodes } from "./bucket";
import { BATCH_SIZE, cleanupStaleUrls, deleteStaleUrls } from "./cleanup";
import { EXPIRED_KEPT_MS, STALE_AFTER_MS } from "./retention";
import { db } from "./db";
import { qrObjectName } from "./qr";
import { holdCleanupTurnForThisFile } from "./__tests__/helpers";

const DAY_MS = 24 * 60 * 60 * 1000;

interface Seed {
  created: Date;
  clicks: number;
  /** Upload a QR image for it. */
  qr?: boolean;
  expires?: Date;
}

const seeded: string[] = [];

/** Inserts links with explicit created_at and clicks; codes are unique to this test run. */
async function seed(...rows: Seed[]): Promise<string[]> {
  const codes = rows.map(() => `cl${randomUUID().replaceAll("-", "").slice(0, 12)}`);
  await db.exec`
    INSERT INTO urls (code, original_url, clicks, created_at, expires_at)
    SELECT code, 'https://example.com/cleanup', clicks, created, expires
    FROM unnest(${codes}::text[], ${rows.map((r) => r.clicks)}::int[], ${rows.map((r) => r.created.toISOString())}::timestamptz[],
                ${rows.map((r) => r.expires?.toISOString() ?? null)}::timestamptz[])
      AS s(code, clicks, created, expires)`;
  await Promise.all(
    rows.flatMap((r, i) => (r.qr ? [qrCodes.upload(qrObjectName(codes[i]), Buffer.from("png"), { contentType: "image/png" })] : [])),
  );
  seeded.push(...codes);
  return codes;
}

/** Which of these codes still have a row. */
async function surviving(codes: string[]): Promise<string[]> {
  const rows = await db.queryAll<{ code: string }>`SELECT code FROM urls WHERE code = ANY(${codes}::text[]) ORDER BY code`;
  return rows.map((r) => r.code);
}

holdCleanupTurnForThisFile();

// Leftovers would be stale for the next test's real-clock run and blur its count.
afterEach(async () => {
  vi.restoreAllMocks();
  await db.exec`DELETE FROM urls WHERE code = ANY(${seeded.splice(0)}::text[])`;
});

describe("deleteStaleUrls at a fixed cutoff", () => {
  // Rows far in the past, so no other test's links are anywhere near this cutoff.
  const cutoff = new Date("1999-06-01T00:00:00.000Z");
  const cutoffs = { unclickedCreatedBefore: cutoff, expiredBefore: cutoff };

  it("deletes zero-click links created strictly before the cutoff, keeps the rest", async () => {
    const [stale, staleByAMs, atBoundary, clickedOld, fresh] = await seed(
      { created: new Date(cutoff.getTime() - 30 * DAY_MS), clicks: 0 },
      { created: new Date(cutoff.getTime() - 1), clicks: 0 },
      { created: cutoff, clicks: 0 },
      { created: new Date(cutoff.getTime() - 300 * DAY_MS), clicks: 1 },
      { created: new Date(cutoff.getTime() + DAY_MS), clicks: 0 },
    );

    expect(await deleteStaleUrls(cutoffs)).toBe(2);

    expect(await surviving([stale, staleByAMs, atBoundary, clickedOld, fresh])).toEqual([atBoundary, clickedOld, fresh].sort());
  });

  it("deletes links that expired strictly before the expiry cutoff, clicked or not, with their QR images", async () => {
    const created = new Date(cutoff.getTime() + 10 * DAY_MS); // too young to be stale for lack of clicks
    const [expiredLong, expiredAtBoundary, expiredLater, neverExpires] = await seed(
      { created, clicks: 40, qr: true, expires: new Date(cutoff.getTime() - 1) },
      { created, clicks: 3, expires: cutoff },
      { created, clicks: 0, expires: new Date(cutoff.getTime() + DAY_MS) },
      { created, clicks: 0 },
    );

    expect(await deleteStaleUrls(cutoffs)).toBe(1);

    expect(await surviving([expiredLong, expiredAtBoundary, expiredLater, neverExpires])).toEqual(
      [expiredAtBoundary, expiredLater, neverExpires].sort(),
    );
    expect(await qrCodes.exists(qrObjectName(expiredLong))).toBe(false);
  });

  it("changes nothing when run a second time", async () => {
    const codes = await seed(
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0 },
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 7 },
      { created: cutoff, clicks: 0 },
    );

    expect(await deleteStaleUrls(cutoffs)).toBe(1);
    const afterFirst = await db.queryAll`SELECT id, code, clicks, created_at FROM urls WHERE code = ANY(${codes}::text[]) ORDER BY id`;
    expect(await deleteStaleUrls(cutoffs)).toBe(0);
    const afterSecond = await db.queryAll`SELECT id, code, clicks, created_at FROM urls WHERE code = ANY(${codes}::text[]) ORDER BY id`;

    expect(afterSecond).toEqual(afterFirst);
    expect(afterSecond).toHaveLength(2);
  });

  it("works through more stale links than one batch", async () => {
    const n = 2 * BATCH_SIZE + 7;
    const codes = await seed(
      ...Array.from({ length: n }, (_, i) => ({ created: new Date(cutoff.getTime() - (i + 1) * 60_000), clicks: i % 2 })),
    );
    const stale = codes.filter((_, i) => i % 2 === 0);

    expect(await deleteStaleUrls(cutoffs)).toBe(stale.length);
    expect(await surviving(codes)).toEqual(codes.filter((_, i) => i % 2 === 1).sort());
  });

  it("removes the QR images of deleted links, keeps the others', and tolerates a missing image", async () => {
    const [staleWithQr, staleWithoutQr, kept] = await seed(
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0, qr: true },
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0 },
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 2, qr: true },
    );

    expect(await deleteStaleUrls(cutoffs)).toBe(2);

    expect(await surviving([staleWithQr, staleWithoutQr, kept])).toEqual([kept]);
    expect(await qrCodes.exists(qrObjectName(staleWithQr))).toBe(false);
    expect(await qrCodes.exists(qrObjectName(kept))).toBe(true);
    await qrCodes.remove(qrObjectName(kept));
  });

  it("fails loudly, naming the images it could not remove, when storage fails", async () => {
    const [unlucky, lucky] = await seed(
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0, qr: true },
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0, qr: true },
    );
    const remove = qrCodes.remove.bind(qrCodes);
    vi.spyOn(qrCodes, "remove").mockImplementation(async (name) => {
      if (name === qrObjectName(unlucky)) throw new Error("storage unavailable");
      return remove(name);
    });

    const logError = vi.spyOn(log, "error").mockImplementation(() => {});
    await expect(deleteStaleUrls(cutoffs)).rejects.toThrow(`1 QR image(s) left in qr-codes: ${qrObjectName(unlucky)}`);
    expect(logError).toHaveBeenCalledWith(expect.any(Error), expect.stringMatching(/QR image/), { object: qrObjectName(unlucky) });

    expect(await surviving([unlucky, lucky])).toEqual([]);
    expect(await qrCodes.exists(qrObjectName(lucky))).toBe(false);
    vi.restoreAllMocks();
    await qrCodes.remove(qrObjectName(unlucky));
  });

  itOnServer("skips a link whose row is locked by a click in progress, and the click keeps it", async () => {
    const [clickedNow, stale] = await seed(
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0 },
      { created: new Date(cutoff.getTime() - DAY_MS), clicks: 0 },
    );
    await using tx = await db.begin();
    await tx.exec`UPDATE urls SET clicks = clicks + 1 WHERE code = ${clickedNow}`;

    expect(await deleteStaleUrls(cutoffs)).toBe(1);

    await tx.commit();
    expect(await surviving([clickedNow, stale])).toEqual([clickedNow]);
  });
});

describe("cleanupStaleUrls", () => {
  it("uses a 90-day and a 30-day-after-expiry cutoff on the real clock and reports what it deleted", async () => {
    const now = Date.now();
    const minute = 60_000;
    const [justStale, justFresh, clickedOld, fresh, longExpired, recentlyExpired] = await seed(
      { created: new Date(now - STALE_AFTER_MS - minute), clicks: 0, qr: true },
      { created: new Date(now - STALE_AFTER_MS + minute), clicks: 0 },
      { created: new Date(now - 2 * STALE_AFTER_MS), clicks: 3 },
      { created: new Date(now - DAY_MS), clicks: 0 },
      { created: new Date(now - 60 * DAY_MS), clicks: 9, qr: true, expires: new Date(now - EXPIRED_KEPT_MS - minute) },
      { created: new Date(now - 60 * DAY_MS), clicks: 9, expires: new Date(now - EXPIRED_KEPT_MS + minute) },
    );
    expect(STALE_AFTER_MS).toBe(90 * DAY_MS);
    expect(EXPIRED_KEPT_MS).toBe(30 * DAY_MS);
    const info = vi.spyOn(log, "info");

    const first = await cleanupStaleUrls();
    const second = await cleanupStaleUrls();

    expect(first.deleted).toBeGreaterThanOrEqual(2);
    expect(second).toEqual({ deleted: 0 });
    expect(info).toHaveBeenCalledWith("removed stale urls", expect.objectContaining({ deleted: first.deleted }));
    expect(await surviving([justStale, justFresh, clickedOld, fresh, longExpired, recentlyExpired])).toEqual(
      [justFresh, clickedOld, fresh, recentlyExpired].sort(),
    );
    expect(await qrCodes.exists(qrObjectName(justStale))).toBe(false);
    expect(await qrCodes.exists(qrObjectName(longExpired))).toBe(false);
  });
});

describeLocal("the cleanup-stale-urls cron job", () => {
  it("runs the cleanup when triggered by its id", async () => {
    const [stale, kept] = await seed(
      { created: new Date(Date.now() - STALE_AFTER_MS - DAY_MS), clicks: 0, qr: true },
      { created: new Date(Date.now() - STALE_AFTER_MS - DAY_MS), clicks: 1 },
    );

    await runCronJob("cleanup-stale-urls");

    expect(await surviving([stale, kept])).toEqual([kept]);
    expect(await qrCodes.exists(qrObjectName(stale))).toBe(false);
  });
});
