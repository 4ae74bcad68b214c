// What each phase of `npm run bench` sends, and the two calls it makes outside the load: a sign-up for
// POST /shorten's token and the stored click total that every phase is checked against.
import type { PhaseSpec } from "./load";

/**
 * A phase, whether its expected answers are clicks (a resolve that must be stored), and, for the phases
 * bench/bare-pg-server.ts also answers, what that bare node:http + pg server does for the same requests,
 * and what it does with --group-commit, where that differs.
 */
export type AppPhase = PhaseSpec & { clicks: boolean; onBarePg?: string; onBatchedPg?: string };

/** What Chrome on Windows sends. */
const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** A function that picks one of `codes` uniformly at random. */
const pickerOf = (codes: string[]) => () => codes[Math.floor(Math.random() * codes.length)];

/** `GET /:code` on uniformly random links: the resolve path, also the one tracing's cost is measured on. */
export function uniformResolves(base: string, codes: string[]): AppPhase {
  const random = pickerOf(codes);
  return {
    name: "GET /:code, uniform",
    url: base,
    expect: 200,
    clicks: true,
    onBarePg: "one UPDATE ... RETURNING per click",
    onBatchedPg: "clicks group-committed, links' rows only",
    next: () => ({ path: `/${random()}` }),
  };
}

/**
 * The same resolves from a single client, one after another: each click is a batch of its own, as for a
 * link whose visitors come one at a time, so this phase shows what one click costs rather than a batch.
 */
function oneClientResolves(base: string, codes: string[]): AppPhase {
  return { ...uniformResolves(base, codes), name: "GET /:code, uniform, one client", connections: 1 };
}

/** The app's phases, in order. */
export function appPhases(base: string, codes: string[], token: string): AppPhase[] {
  const random = pickerOf(codes);
  let shortened = 0;
  return [
    uniformResolves(base, codes),
    oneClientResolves(base, codes),
    { name: "GET /:code, one hot link", url: `${base}/${codes[0]}`, expect: 200, clicks: true },
    {
      name: "GET /:code, browser (302)",
      url: base,
      expect: 302,
      clicks: true,
      // A browser's User-Agent: each click is then a person, and most are their link's new visitor of the day.
      headers: { Accept: "text/html,application/xhtml+xml", "User-Agent": BROWSER_USER_AGENT },
      next: () => ({ path: `/${random()}` }),
    },
    {
      name: "GET /:code/stats",
      url: base,
      expect: 200,
      clicks: false,
      onBarePg: "the same SELECT",
      next: () => ({ path: `/${random()}/stats` }),
    },
    {
      name: "POST /shorten",
      url: `${base}/shorten`,
      method: "POST",
      expect: 200,
      clicks: false,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      next: () => ({ path: "/shorten", body: JSON.stringify({ url: `https://example.com/bench/${shortened++}` }) }),
    },
  ];
}

/** Signs a fresh user up; resolves with the token. */
export async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/signup`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: "correct horse battery" }),
  });
  if (res.status !== 200) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The click total the app has stored. */
export async function storedClicks(base: string): Promise<number> {
  const res = await fetch(`${base}/analytics/summary`);
  if (res.status !== 200) throw new Error(`summary answered ${res.status}: ${await res.text()}`);
  return Number(((await res.json()) as { totalClicks: number }).totalClicks);
}
