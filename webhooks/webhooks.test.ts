import { afterAll, beforeAll, expect, it } from "vitest";
import { captureLogs, describeLocal, drainTopic, redeliveryWarning, setRetryBackoffScale, useTestServer } from "../local/testing";
import { signUp } from "../url/__tests__/helpers";
import { relayLinkEvents } from "../url/link-events";
import { db } from "./db";
import { MAX_ATTEMPTS } from "./deliver";
import { startReceiver, type TestReceiver } from "./__tests__/receiver";

/** Relays the outbox and drains both topics (retries included) at least once, and until `done` holds (bounded). */
async function settle(done: () => boolean = () => true, what = "the outbox", timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  do {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await relayLinkEvents();
    await drainTopic("link-events");
    await drainTopic("webhook-deliveries");
  } while (!done());
}

/** The warning of each failed attempt that will be retried. */
const retried = redeliveryWarning(
  "deliver-webhook",
  /^webhook delivery attempt \d+ failed: the receiver answered 503; it will be retried$/,
);

describeLocal("webhooks over HTTP", () => {
  const app = useTestServer();
  let alice: string;
  let bob: string;
  let receiver: TestReceiver;

  beforeAll(async () => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    await setRetryBackoffScale(0.0001);
    alice = await signUp(app.baseUrl);
    bob = await signUp(app.baseUrl);
    receiver = await startReceiver();
  });

  afterAll(async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    await setRetryBackoffScale(1);
    await receiver.close();
  });

  it("creates a webhook, shows its secret once, lists, changes and deletes it; another account's is not_found", async () => {
    const created = await app.call("POST", "/webhooks", {
      token: alice,
      body: { url: receiver.url, events: ["link.deleted", "link.created"] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      url: receiver.url,
      events: ["link.created", "link.deleted"],
      enabled: true,
      disabledReason: null,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { id } = created.body;

    const listed = await app.call("GET", "/webhooks", { token: alice });
    expect(listed.body.webhooks).toEqual([{ ...created.body, secret: undefined }].map(({ secret: _, ...w }) => w));
    expect(listed.text).not.toContain(created.body.secret);
    expect((await app.call("GET", "/webhooks", { token: bob })).body).toEqual({ webhooks: [] });

    for (const [method, path, body] of [
      ["PATCH", `/webhooks/${id}`, { enabled: false }],
      ["DELETE", `/webhooks/${id}`, undefined],
      ["GET", `/webhooks/${id}/deliveries`, undefined],
      ["POST", `/webhooks/${id}/test`, {}],
      ["DELETE", "/webhooks/not-a-uuid", undefined],
    ] as const) {
      const answer = await app.call(method, path, { token: bob, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({ code: "not_found", message: "webhook not found" });
    }

    const changed = await app.call("PATCH", `/webhooks/${id}`, { token: alice, body: { events: ["link.updated"], enabled: false } });
    expect(changed.body).toMatchObject({ id, events: ["link.updated"], enabled: false });
    expect((await app.call("DELETE", `/webhooks/${id}`, { token: alice })).status).toBe(200);
    expect((await app.call("GET", "/webhooks", { token: alice })).body).toEqual({ webhooks: [] });
  });

  it.each([
    [{ url: "ftp://example.com/", events: ["link.created"] }, "url: only http and https URLs are allowed"],
    [{ url: "https://user:pw@example.com/", events: ["link.created"] }, "url: the URL must not contain a user name or password"],
    [{ url: "http://169.254.169.254/", events: ["link.created"] }, "url: private, loopback and reserved addresses are not allowed"],
    [{ url: "https://example.com/", events: [] }, /events: length too short/],
    [{ url: "https://example.com/", events: ["link.viewed"] }, /events/],
  ])("refuses %j", async (body, message) => {
    const answer = await app.call("POST", "/webhooks", { token: alice, body });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_argument");
    expect(answer.body.message).toMatch(message);
  });

  it("refuses a private address written out when the development setting is off", async () => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    try {
      const answer = await app.call("POST", "/webhooks", { token: alice, body: { url: receiver.url, events: ["link.created"] } });
      expect(answer.body).toMatchObject({
        code: "invalid_argument",
        message: "url: private, loopback and reserved addresses are not allowed",
      });
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    }
  });

  it("delivers every link change and click of the owner, signed, and nothing of another account", async () => {
    const { body: hook } = await app.call("POST", "/webhooks", {
      token: alice,
      body: { url: receiver.url, events: ["link.created", "link.updated", "link.deleted", "link.clicked"] },
    });
    receiver.secret = hook.secret;
    receiver.events.clear();
    const { body: link } = await app.call("POST", "/shorten", { token: alice, body: { url: "https://example.com/a" } });
    await app.call("POST", "/shorten", { token: bob, body: { url: "https://example.com/bob" } });
    await app.call("PATCH", `/urls/${link.code}`, { token: alice, body: { url: "https://example.com/b" } });
    await Promise.all(
      Array.from({ length: 25 }, () => app.call("GET", `/${link.code}`, { headers: { referer: "https://news.example/x" } })),
    );
    await app.call("DELETE", `/urls/${link.code}`, { token: alice });

    await settle(() => receiver.events.size >= 28, "28 events");
    const events = [...receiver.events.values()];
    const byType = (t: string) => events.filter((e) => e.type === t);
    expect(byType("link.created")).toHaveLength(1);
    expect(byType("link.created")[0].data).toMatchObject({ code: link.code, url: "https://example.com/a", shortUrl: link.shortUrl });
    expect(byType("link.updated").map((e) => e.data.url)).toEqual(["https://example.com/b"]);
    expect(byType("link.clicked")).toHaveLength(25);
    expect(byType("link.clicked")[0].data).toMatchObject({ code: link.code, referrer: "news.example", source: "link" });
    expect(byType("link.deleted")).toHaveLength(1);
    expect(events).toHaveLength(28);
    expect(receiver.rejected).toBe(0);
    expect(JSON.stringify(events)).not.toContain("example.com/bob");

    const { body: page } = await app.call("GET", `/webhooks/${hook.id}/deliveries`, { token: alice });
    expect(page.deliveries).toHaveLength(28);
    expect(page.deliveries.every((d: { outcome: string; statusCode: number }) => d.outcome === "delivered" && d.statusCode === 204)).toBe(
      true,
    );
    await app.call("DELETE", `/webhooks/${hook.id}`, { token: alice });
  });

  it("sends a click event only for a click that counted: past a link's click limit, none", async () => {
    const { body: hook } = await app.call("POST", "/webhooks", { token: alice, body: { url: receiver.url, events: ["link.clicked"] } });
    receiver.secret = hook.secret;
    receiver.events.clear();
    const { body: link } = await app.call("POST", "/shorten", { token: alice, body: { url: "https://example.com/limited", maxClicks: 3 } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => app.call("GET", `/${link.code}`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    await settle(() => receiver.events.size >= 3, "3 click events");
    await settle();
    expect([...receiver.events.values()].map((e) => e.data.code)).toEqual([link.code, link.code, link.code]);
    await app.call("DELETE", `/webhooks/${hook.id}`, { token: alice });
  });

  it("retries while the receiver fails, shows the retries, and delivers every event in the end", async () => {
    const { body: hook } = await app.call("POST", "/webhooks", { token: alice, body: { url: receiver.url, events: ["link.created"] } });
    receiver.secret = hook.secret;
    receiver.events.clear();
    receiver.failing = true;
    const logs = captureLogs(retried);
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await app.call("POST", "/shorten", { token: alice, body: { url: `https://example.com/r${i}` } })).body.code);
    await relayLinkEvents();
    await drainTopic("link-events");
    // Two failed attempts per event at least, then the receiver recovers while retries are pending.
    for (const deadline = Date.now() + 10_000; receiver.failed < 6 && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 2));
    receiver.failing = false;
    await settle(() => receiver.events.size === 3, "3 events after the failures");
    expect([...receiver.events.values()].map((e) => e.data.code).sort()).toEqual(codes.sort());

    const { body: page } = await app.call("GET", `/webhooks/${hook.id}/deliveries`, { token: alice });
    const retrying = page.deliveries.filter((d: { outcome: string }) => d.outcome === "retrying");
    expect(retrying.length).toBe(receiver.failed);
    expect(logs.lines).toHaveLength(receiver.failed);
    expect(retrying[0]).toMatchObject({ statusCode: 503, error: "the receiver answered 503" });
    expect(page.deliveries.filter((d: { outcome: string }) => d.outcome === "delivered")).toHaveLength(3);
    await app.call("DELETE", `/webhooks/${hook.id}`, { token: alice });
  });

  it(`records an event as failed after ${MAX_ATTEMPTS} attempts, and disables a webhook failing for 3 days`, async () => {
    const { body: hook } = await app.call("POST", "/webhooks", { token: alice, body: { url: receiver.url, events: ["link.created"] } });
    receiver.secret = hook.secret;
    receiver.failing = true;
    const logs = captureLogs(retried);
    await app.call("POST", "/shorten", { token: alice, body: { url: "https://example.com/never" } });
    await settle();
    // The last attempt records the event as failed instead of asking for another.
    expect(logs.lines).toHaveLength(MAX_ATTEMPTS - 1);
    const { body: page } = await app.call("GET", `/webhooks/${hook.id}/deliveries`, { token: alice });
    expect(page.deliveries).toHaveLength(MAX_ATTEMPTS);
    expect(page.deliveries[0]).toMatchObject({ attempt: MAX_ATTEMPTS, outcome: "failed", statusCode: 503 });
    expect(page.deliveries.slice(1).every((d: { outcome: string }) => d.outcome === "retrying")).toBe(true);
    expect((await app.call("GET", "/webhooks", { token: alice })).body.webhooks[0]).toMatchObject({
      enabled: true,
      failingSince: expect.any(String),
    });

    // Three days into the streak, the next failure disables the webhook and says why.
    await db.exec`UPDATE webhooks SET failing_since = now() - interval '3 days 1 minute' WHERE id = ${hook.id}::uuid`;
    expect((await app.call("POST", `/webhooks/${hook.id}/test`, { token: alice, body: {} })).body).toMatchObject({
      delivered: false,
      statusCode: 503,
    });
    const { body: after } = await app.call("GET", "/webhooks", { token: alice });
    expect(after.webhooks[0]).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(
        /^disabled after failing for 3 days: no delivery succeeded since \d{4}-\d\d-\d\d \d\d:\d\d UTC; the last attempt: the receiver answered 503$/,
      ),
    });

    // Disabled, it gets nothing; enabled again by its owner, it works and its streak is forgotten.
    receiver.failing = false;
    receiver.events.clear();
    await app.call("POST", "/shorten", { token: alice, body: { url: "https://example.com/while-disabled" } });
    await settle();
    expect(receiver.events.size).toBe(0);
    const enabled = await app.call("PATCH", `/webhooks/${hook.id}`, { token: alice, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect((await app.call("POST", `/webhooks/${hook.id}/test`, { token: alice, body: {} })).body).toMatchObject({
      delivered: true,
      statusCode: 204,
    });
    expect([...receiver.events.values()][0]).toMatchObject({ type: "webhook.test", data: { webhookId: hook.id } });
    await app.call("DELETE", `/webhooks/${hook.id}`, { token: alice });
  });

  it("checks the address at delivery time: a name that resolves to loopback is refused without the development setting", async () => {
    const url = receiver.url.replace("127.0.0.1", "localhost");
    const { body: hook } = await app.call("POST", "/webhooks", { token: alice, body: { url, events: ["link.created"] } });
    expect(hook.url).toBe(url);
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    try {
      receiver.events.clear();
      const result = await app.call("POST", `/webhooks/${hook.id}/test`, { token: alice, body: {} });
      expect(result.body).toMatchObject({
        delivered: false,
        statusCode: null,
        error: expect.stringMatching(/^address (127\.0\.0\.1|::1) is not allowed/),
      });
      expect(receiver.events.size).toBe(0);
    } finally {
      process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    }
    await app.call("DELETE", `/webhooks/${hook.id}`, { token: alice });
  });
});

describeLocal("the deliveries list", () => {
  const app = useTestServer();

  it("pages a webhook's attempts newest first with a cursor, each attempt once", async () => {
    const token = await signUp(app.baseUrl);
    const { body: hook } = await app.call("POST", "/webhooks", {
      token,
      body: { url: "https://example.com/hook", events: ["link.clicked"] },
    });
    await db.exec`
      INSERT INTO webhook_attempts (webhook_id, event_id, event_type, attempt, status_code, duration_ms, outcome)
      SELECT ${hook.id}::uuid, 'evt_' || n, 'link.clicked', 1, 204, n, 'delivered' FROM generate_series(1, 60) AS n ORDER BY n`;
    const first = await app.call("GET", `/webhooks/${hook.id}/deliveries`, { token });
    expect(first.body.deliveries).toHaveLength(50);
    expect(first.body.deliveries[0]).toMatchObject({
      eventId: "evt_60",
      eventType: "link.clicked",
      attempt: 1,
      statusCode: 204,
      error: null,
      durationMs: 60,
      outcome: "delivered",
    });
    const second = await app.call("GET", `/webhooks/${hook.id}/deliveries?cursor=${first.body.nextCursor}`, { token });
    expect(second.body.nextCursor).toBeUndefined();
    expect(second.body.deliveries.map((d: { eventId: string }) => d.eventId)).toEqual(
      Array.from({ length: 10 }, (_, i) => `evt_${10 - i}`),
    );
    expect((await app.call("GET", `/webhooks/${hook.id}/deliveries?cursor=bogus`, { token })).body).toMatchObject({
      code: "invalid_argument",
      message: "invalid cursor",
    });
  });
});
