// Clients that hang up before their answer: the request's work stands (a click counted, a link
// deleted) and the server keeps answering. A write to the closed connection must not end the process;
// vitest fails the run on any unhandled error, which is how that crash would show here.
import http from "node:http";
import { beforeAll, expect, it, vi } from "vitest";
import { describeLocal, useTestServer } from "../local/testing";
import { signUp } from "./__tests__/helpers";
import { db } from "./db";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";

/**
 * Sends a request and returns the hang-up: a TCP reset, as a killed client or a closed tab's network
 * stack sends it (a plain close only half-closes, and the server may still write its answer).
 */
function sendAndKeep(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? "GET", headers: init.headers, agent: false });
    req.on("error", () => {}); // the hang-up is ours
    req.on("response", (res) => res.resume());
    req.once("finish", () => resolve(() => req.socket?.resetAndDestroy()));
    req.once("error", reject);
    req.end();
  });
}

async function shorten(baseUrl: string, token: string, target: string): Promise<string> {
  const resp = await fetch(`${baseUrl}/shorten`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url: target }),
  });
  expect(resp.status).toBe(200);
  return ((await resp.json()) as { code: string }).code;
}

async function clicksOf(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)?.clicks ?? -1;
}

describeLocal("clients that hang up mid-request", () => {
  const server = useTestServer();
  let token: string;

  beforeAll(async () => {
    token = await signUp(server.baseUrl);
  });

  it("keeps the work of raw, redirect and typed requests whose clients left while the database was busy", async () => {
    const visited = await shorten(server.baseUrl, token, "https://example.com/visited");
    const doomed = await Promise.all(
      Array.from({ length: 8 }, (_, i) => shorten(server.baseUrl, token, `https://example.com/doomed/${i}`)),
    );

    // Hold the rows so every handler waits on the database until its client has gone.
    const tx = await db.begin();
    await tx.exec`SELECT code FROM urls WHERE code = ANY(${[visited, ...doomed]}) FOR UPDATE`;
    const hangUps = await Promise.all([
      ...Array.from({ length: 12 }, () => sendAndKeep(`${server.baseUrl}/${visited}`)),
      ...Array.from({ length: 12 }, () => sendAndKeep(`${server.baseUrl}/${visited}`, { headers: { Accept: BROWSER_ACCEPT } })),
      ...doomed.map((code) =>
        sendAndKeep(`${server.baseUrl}/urls/${code}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } }),
      ),
    ]);
    // Long enough for all 32 requests to reach their handlers on a loaded machine (the rows stay locked
    // whatever the wait, so every handler is still waiting on the database when its client leaves).
    await new Promise((r) => setTimeout(r, 1500));
    for (const hangUp of hangUps) hangUp();
    await tx.commit();

    await vi.waitFor(async () => expect(await clicksOf(visited)).toBe(24), { timeout: 10_000, interval: 50 });
    await vi.waitFor(async () => expect(await db.queryRow`SELECT 1 FROM urls WHERE code = ANY(${doomed})`).toBeNull(), {
      timeout: 10_000,
      interval: 50,
    });
    const after = await fetch(`${server.baseUrl}/${visited}`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ url: "https://example.com/visited" });
  });

  it("keeps answering after a burst of clients that hang up at random moments", async () => {
    const code = await shorten(server.baseUrl, token, "https://example.com/burst");
    const paths = [`/${code}`, `/${code}`, "/zzzzzz", `/${code}/stats`, "/no/such/route"];
    await Promise.all(
      Array.from({ length: 120 }, async (_, i) => {
        const hangUp = await sendAndKeep(server.baseUrl + paths[i % paths.length], i % 2 ? { headers: { Accept: BROWSER_ACCEPT } } : {});
        await new Promise((r) => setTimeout(r, i % 7));
        hangUp();
      }),
    );
    const resp = await fetch(`${server.baseUrl}/${code}/stats`);
    expect(resp.status).toBe(200);
    // Every click that reached the database stands: never more than were sent.
    expect(((await resp.json()) as { clicks: number }).clicks).toBeLessThanOrEqual(48);
  });
});
