// The webhooks' end-to-end run: `npm start` with a loopback receiver that verifies every request with
// standardwebhooks; 100 link changes and 1,000 clicks while the receiver fails, a kill -9 in the middle of
// the clicks, a restart on the same data, and then every acknowledged change and click must arrive.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freshAppState, removeAppState, startApp, type SpawnedApp } from "../../local/testing";
import { startReceiver, type ReceivedEvent } from "./receiver";

const APP_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const ENV = {
  JWTSecret: "webhook-run-secret-webhook-run-secret!!",
  LOG_LEVEL: "error",
  WEBHOOKS_ALLOW_PRIVATE: "1",
  // 30 s backoffs become 0.3 s: the retries show within the run.
  LOCAL_PUBSUB_BACKOFF_SCALE: "0.01",
};

/** How long after the restart every event must have arrived. */
const CATCH_UP_LIMIT_MS = 120_000;

/** What one run saw. */
export interface DeliveryFigures {
  changesAcknowledged: number;
  clicksSent: number;
  clicksAcknowledged: number;
  /** Distinct events the receiver accepted (by webhook-id). */
  eventsReceived: number;
  /** Requests the receiver accepted, copies included: eventsReceived plus the duplicates. */
  requestsAccepted: number;
  /** Requests the receiver failed on purpose (503) while it was down. */
  requestsFailed: number;
  /** Requests whose signature did not verify: must be 0. */
  signaturesRejected: number;
  /** Attempts the deliveries list shows as retrying. */
  retriesListed: number;
  /** Acknowledged changes with no event, and links with fewer click events than acknowledged clicks: must be empty. */
  missing: string[];
  /** Milliseconds from the restart until everything acknowledged had arrived. */
  catchUpMs: number;
}

async function json<T>(resp: Response): Promise<T> {
  if (resp.status !== 200) throw new Error(`${resp.url} answered ${resp.status}: ${await resp.text()}`);
  return (await resp.json()) as T;
}

/** What the run expects to arrive: one event per acknowledged change, and at least the acknowledged clicks per link. */
interface Acknowledged {
  created: Set<string>;
  /** The target of each acknowledged PATCH: unique per PATCH. */
  updated: Set<string>;
  deleted: Set<string>;
  clicks: Map<string, number>;
}

function missingEvents(ack: Acknowledged, events: ReceivedEvent[]): string[] {
  const seen = (type: string, key: string) => new Set(events.filter((e) => e.type === type).map((e) => String(e.data[key])));
  const created = seen("link.created", "code");
  const updated = seen("link.updated", "url");
  const deleted = seen("link.deleted", "code");
  const clicks = new Map<string, number>();
  for (const e of events) if (e.type === "link.clicked") clicks.set(String(e.data.code), (clicks.get(String(e.data.code)) ?? 0) + 1);
  return [
    ...[...ack.created].filter((c) => !created.has(c)).map((c) => `link.created ${c}`),
    ...[...ack.updated].filter((u) => !updated.has(u)).map((u) => `link.updated ${u}`),
    ...[...ack.deleted].filter((c) => !deleted.has(c)).map((c) => `link.deleted ${c}`),
    ...[...ack.clicks].filter(([c, n]) => (clicks.get(c) ?? 0) < n).map(([c, n]) => `link.clicked ${c}: ${clicks.get(c) ?? 0} of ${n}`),
  ];
}

/** Runs `concurrency` workers over `tasks`. */
async function pool(tasks: (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}

/**
 * deliveryRun makes 40 links, changes 40 and deletes 20 (100 changes), then sends `clicks` clicks to the
 * 20 links left, killing the app (kill -9) once half of them were acknowledged; after the restart it
 * sends the clicks that were not acknowledged again, so `clicks` are acknowledged in all. The receiver
 * fails every request from the start until a few seconds after the restart.
 */
export async function deliveryRun(clicks = 1000): Promise<DeliveryFigures> {
  const state = freshAppState();
  const receiver = await startReceiver();
  let app: SpawnedApp | null = null;
  try {
    app = await startApp(APP_ROOT, ENV, state);
    let base = app.baseUrl;
    const { token } = await json<{ token: string }>(
      await fetch(`${base}/auth/signup`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: `webhooks-${Date.now()}@example.com`, password: "correct horse battery" }),
      }),
    );
    const auth = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" };
    const hook = await json<{ id: string; secret: string }>(
      await fetch(`${base}/webhooks`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: receiver.url, events: ["link.created", "link.updated", "link.deleted", "link.clicked"] }),
      }),
    );
    receiver.secret = hook.secret;
    receiver.failing = true;

    const ack: Acknowledged = { created: new Set(), updated: new Set(), deleted: new Set(), clicks: new Map() };
    const codes: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { code } = await json<{ code: string }>(
        await fetch(`${base}/shorten`, { method: "POST", headers: auth, body: JSON.stringify({ url: `https://example.com/c/${i}` }) }),
      );
      codes.push(code);
      ack.created.add(code);
    }
    for (let i = 0; i < 40; i++) {
      const target = `https://example.com/u/${i}`;
      await json(await fetch(`${base}/urls/${codes[i]}`, { method: "PATCH", headers: auth, body: JSON.stringify({ url: target }) }));
      ack.updated.add(target);
    }
    for (const code of codes.slice(20)) {
      if ((await fetch(`${base}/urls/${code}`, { method: "DELETE", headers: auth })).status === 200) ack.deleted.add(code);
    }

    const live = codes.slice(0, 20);
    let acknowledged = 0;
    let killing: Promise<void> | null = null;
    const click = (code: string) => async () => {
      const resp = await fetch(`${base}/${code}`, { headers: { Accept: "application/json" } }).catch(() => null);
      if (resp?.status !== 200 || !(await resp.text().catch(() => "")).includes("example.com/u/")) return;
      ack.clicks.set(code, (ack.clicks.get(code) ?? 0) + 1);
      if (++acknowledged === clicks / 2 && killing === null) killing = app!.kill();
    };
    await pool(
      Array.from({ length: clicks }, (_, i) => click(live[i % live.length])),
      25,
    );
    await (killing ?? app.kill());

    const restartedAt = Date.now();
    app = await startApp(APP_ROOT, ENV, state);
    base = app.baseUrl;
    // The receiver comes back a little after the app, so the retries of the restarted app show too.
    setTimeout(() => (receiver.failing = false), 3_000).unref();
    // The clicks the dead app never answered are sent again, so `clicks` are acknowledged in all.
    const lost = clicks - acknowledged;
    await pool(
      Array.from({ length: lost }, (_, i) => click(live[i % live.length])),
      25,
    );
    let missing = missingEvents(ack, [...receiver.events.values()]);
    while (missing.length > 0 && Date.now() - restartedAt < CATCH_UP_LIMIT_MS) {
      await new Promise((r) => setTimeout(r, 250));
      missing = missingEvents(ack, [...receiver.events.values()]);
    }
    const catchUpMs = Date.now() - restartedAt;

    let retriesListed = 0;
    let cursor: string | undefined;
    do {
      const page = await json<{ deliveries: { outcome: string }[]; nextCursor?: string }>(
        await fetch(`${base}/webhooks/${hook.id}/deliveries${cursor ? `?cursor=${cursor}` : ""}`, { headers: auth }),
      );
      retriesListed += page.deliveries.filter((d) => d.outcome === "retrying").length;
      cursor = page.nextCursor;
    } while (cursor !== undefined);

    return {
      changesAcknowledged: ack.created.size + ack.updated.size + ack.deleted.size,
      clicksSent: clicks + lost,
      clicksAcknowledged: acknowledged,
      eventsReceived: receiver.events.size,
      requestsAccepted: receiver.accepted,
      requestsFailed: receiver.failed,
      signaturesRejected: receiver.rejected,
      retriesListed,
      missing,
      catchUpMs,
    };
  } finally {
    await app?.kill();
    await receiver.close();
    await removeAppState(state);
  }
}
