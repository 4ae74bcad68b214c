// kill -9 of `npm start` in the middle of a burst of shortens and clicks, then a restart on the same
// data: what was acknowledged must all be there, and analytics must end up counting every stored link.
// Used by local/devtools/e2e/crash-restart.test.ts (once per engine in CI) and local/devtools/e2e/crash-restart.ts (repeated).
import { appRoot as appRootDir } from "../../model/layout.mjs";
import { freshAppState, removeAppState, startApp, type SpawnedApp } from "./spawn-app";

/** What one crash-and-restart run saw. */
export interface CrashFigures {
  shortensSent: number;
  shortensAcknowledged: number;
  /** Links in the url database after the restart (acknowledged ones plus any committed unanswered). */
  linksStored: number;
  /** Acknowledged links missing after the restart: must be empty. */
  missing: string[];
  /** analytics' linksCreated once it stopped changing; equals linksStored when nothing was lost. */
  linksCounted: number;
  clicksSent: number;
  clicksAcknowledged: number;
  /** Clicks stored on the clicked link: at least the acknowledged ones, at most the ones sent. */
  clicksStored: number;
  /** Milliseconds from the restart until analytics counted every stored link. */
  catchUpMs: number;
}

const ENV = { JWTSecret: "crash-test-secret-crash-test-secret-32b!", LOG_LEVEL: "error" };
const CATCH_UP_LIMIT_MS = 40_000;

async function json<T>(resp: Response): Promise<T> {
  if (resp.status !== 200) throw new Error(`${resp.url} answered ${resp.status}: ${await resp.text()}`);
  return (await resp.json()) as T;
}

async function signUp(base: string): Promise<Record<string, string>> {
  const body = JSON.stringify({ email: `crash-${Date.now()}@example.com`, password: "correct horse battery" });
  const { token } = await json<{ token: string }>(
    await fetch(`${base}/auth/signup`, { method: "POST", headers: { "Content-Type": "application/json" }, body }),
  );
  return { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
}

/** Runs `shortens` concurrent shortens and as many clicks, and kills the app after `killAfter` acknowledged shortens. */
export async function crashDuringBurst(shortens = 200, killAfter = shortens / 2): Promise<CrashFigures> {
  const state = freshAppState();
  let app: SpawnedApp | null = null;
  try {
    app = await startApp(appRootDir, ENV, state);
    const base = app.baseUrl;
    const auth = await signUp(base);
    const { code: clicked } = await json<{ code: string }>(
      await fetch(`${base}/shorten`, { method: "POST", headers: auth, body: JSON.stringify({ url: "https://example.com/clicked" }) }),
    );

    const acknowledged: string[] = [];
    let clicksAcknowledged = 0;
    const killed = app.kill.bind(app);
    let killing: Promise<void> | null = null;
    const shorten = async (i: number) => {
      const resp = await fetch(`${base}/shorten`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: `https://example.com/burst/${i}` }),
      }).catch(() => null);
      if (resp?.status !== 200) return;
      const { code } = (await resp.json().catch(() => ({}))) as { code?: string };
      if (!code) return;
      acknowledged.push(code);
      if (acknowledged.length === killAfter) killing = killed();
    };
    const click = async () => {
      const resp = await fetch(`${base}/${clicked}`).catch(() => null);
      if (resp?.status === 200 && (await resp.text().catch(() => "")).includes("example.com/clicked")) clicksAcknowledged++;
    };
    await Promise.all(Array.from({ length: shortens }, (_, i) => Promise.all([shorten(i), click()])));
    await (killing ?? killed());

    const restartedAt = Date.now();
    app = await startApp(appRootDir, ENV, state);
    const after = app.baseUrl;
    const missing: string[] = [];
    for (const code of acknowledged) {
      if ((await fetch(`${after}/${code}/stats`)).status !== 200) missing.push(code);
    }
    const { clicks: clicksStored } = await json<{ clicks: number }>(await fetch(`${after}/${clicked}/stats`));

    let totals = await json<{ linksCreated: number; activeLinks: number }>(await fetch(`${after}/analytics/summary`));
    while (totals.linksCreated < totals.activeLinks && Date.now() - restartedAt < CATCH_UP_LIMIT_MS) {
      await new Promise((r) => setTimeout(r, 250));
      totals = await json(await fetch(`${after}/analytics/summary`));
    }
    return {
      shortensSent: shortens,
      shortensAcknowledged: acknowledged.length,
      // The clicked link was made before the burst.
      linksStored: totals.activeLinks - 1,
      missing,
      linksCounted: totals.linksCreated - 1,
      clicksSent: shortens,
      clicksAcknowledged,
      clicksStored,
      catchUpMs: Date.now() - restartedAt,
    };
  } finally {
    await app?.kill();
    await removeAppState(state);
  }
}

/** Whether a run lost nothing: every acknowledged link and click is there and analytics counts every link. */
export function lostNothing(f: CrashFigures): boolean {
  return (
    f.missing.length === 0 &&
    f.linksStored >= f.shortensAcknowledged &&
    f.linksCounted === f.linksStored &&
    f.clicksStored >= f.clicksAcknowledged &&
    f.clicksStored <= f.clicksSent
  );
}
