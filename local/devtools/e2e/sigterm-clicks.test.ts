// `npm start` stopped by SIGTERM in the middle of a load loses no click and invents none: after a
// restart on the same data, the stored click total equals the resolves that were answered 200.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freshAppState, removeAppState, startApp, type AppState } from "./spawn-app";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const env = { JWTSecret: "sigterm-test-secret-sigterm-test-secret!!" };
const STOP_AFTER = 200;
const CLIENTS = 32;

let state: AppState;

beforeAll(() => {
  state = freshAppState();
});

afterAll(async () => {
  await removeAppState(state);
});

async function json<T>(res: Response): Promise<T> {
  if (res.status !== 200) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Signs up and shortens `n` links; returns their codes. */
async function makeLinks(base: string, n: number): Promise<string[]> {
  const { token } = await json<{ token: string }>(
    await fetch(`${base}/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `sigterm-${Date.now()}@example.com`, password: "correct horse battery" }),
    }),
  );
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/shorten`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ url: `https://example.com/sigterm/${i}` }),
    });
    codes.push((await json<{ code: string }>(res)).code);
  }
  return codes;
}

it("keeps the click total equal to the resolves answered 200 when SIGTERM arrives under load", async () => {
  let app = await startApp(appRoot, env, state);
  const codes = await makeLinks(app.baseUrl, 3);
  let answered = 0;
  let refused = 0;
  let signalled: Promise<number | null> | null = null;
  // Each client resolves until the server stops answering; SIGTERM goes out mid-stream.
  const client = async (n: number) => {
    for (let i = 0; ; i++) {
      const code = codes[(n + i) % codes.length];
      let res: Response;
      try {
        res = await fetch(`${app.baseUrl}/${code}`);
        await res.arrayBuffer();
      } catch {
        refused++;
        return;
      }
      if (res.status !== 200) return;
      answered++;
      if (answered === STOP_AFTER) signalled = app.stop();
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
  expect(signalled).not.toBeNull();
  expect(await signalled).toBe(0);
  expect(answered).toBeGreaterThanOrEqual(STOP_AFTER);

  app = await startApp(appRoot, env, state);
  try {
    const stored = await Promise.all(
      codes.map(async (code) => (await json<{ clicks: number }>(await fetch(`${app.baseUrl}/${code}/stats`))).clicks),
    );
    expect({ stored: stored.reduce((a, b) => a + b, 0), refused: refused > 0 }).toEqual({ stored: answered, refused: true });
  } finally {
    await app.stop();
  }
}, 300_000);
