// The signed-in session: the API's access and refresh tokens. "Stay signed in" keeps them in
// localStorage (every tab, across restarts); without it in sessionStorage (this tab only). The access
// token is renewed with the refresh token shortly before it expires or when the API refuses it; the
// server ends a session whose used refresh token comes back, so renewals never race: one at a time
// in a tab, and across tabs under a Web Lock, after which a tab first adopts what another stored.
import { useEffect, useState } from "preact/hooks";
import { handOver, lastHandover } from "./renewal-handover";

export interface Session {
  token: string;
  /** When the access token stops being accepted (ISO time from the API). */
  expiresAt: string;
  refreshToken: string;
  /** When the session ends unless renewed before (ISO time from the API). */
  refreshExpiresAt: string;
  email: string;
  /** "Stay signed in": kept for every tab and across browser restarts. */
  persistent: boolean;
  /** When (this browser's clock, ms) to renew the access token: shortly before it expires. */
  renewAt: number;
}

/** The tokens signup, login and refresh answer. */
export type SessionTokens = Pick<Session, "token" | "expiresAt" | "refreshToken" | "refreshExpiresAt">;

const KEY = "shortener.session";
/** Set once this browser has signed in, so a returning visitor is offered log in rather than sign up. */
const RETURNING_KEY = "shortener.returning";
/** Renew the access token this long before it expires (at most a quarter of its life), so no call leaves with one about to lapse. */
const RENEW_EARLY_MS = 30_000;
/** What the log-in screen says when the API ended the session. */
export const SESSION_ENDED = "Your session has ended. Log in again.";

const listeners = new Set<() => void>();

/**
 * renewAtFor is when to renew a token just received. It is timed by the token's own lifetime (exp - iat)
 * from now, not by its expiresAt, so a browser whose clock is off neither renews on every call nor too late.
 */
function renewAtFor(token: string): number {
  try {
    const claims = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { iat: number; exp: number };
    const lifetimeMs = (claims.exp - claims.iat) * 1000;
    return Date.now() + lifetimeMs - Math.min(RENEW_EARLY_MS, lifetimeMs / 4);
  } catch {
    return 0;
  }
}

function read(): Session | null {
  for (const store of [localStorage, sessionStorage]) {
    try {
      const s = JSON.parse(store.getItem(KEY) ?? "null") as Session | null;
      if (s && typeof s.refreshToken === "string" && typeof s.renewAt === "number" && Date.parse(s.refreshExpiresAt) > Date.now()) return s;
    } catch {
      // A damaged entry is no session.
    }
  }
  return null;
}

function store(s: Session | null): void {
  // One setItem, never a removal first: another tab reading in between would find no session.
  if (s) (s.persistent ? localStorage : sessionStorage).setItem(KEY, JSON.stringify(s));
  if (!s || s.persistent) sessionStorage.removeItem(KEY);
  if (!s || !s.persistent) localStorage.removeItem(KEY);
}

let current: Session | null = read();
/** Why the last session ended without the user asking, shown on the log-in form. */
let endedBecause: string | null = null;

function publish(): void {
  for (const l of listeners) l();
}

// Another tab signed in, renewed or signed out: take its state.
addEventListener("storage", (e) => {
  if (e.key !== KEY && e.key !== null) return;
  current = read();
  publish();
});

export function currentSession(): Session | null {
  return current;
}

/** Whether this browser has been signed in before (then log in, not sign up, is the likelier wish). */
export function isReturningVisitor(): boolean {
  return localStorage.getItem(RETURNING_KEY) !== null;
}

/** signIn starts using a new session's tokens. */
export function signIn(tokens: SessionTokens, email: string, persistent: boolean): void {
  current = { ...tokens, email, persistent, renewAt: renewAtFor(tokens.token) };
  endedBecause = null;
  store(current);
  localStorage.setItem(RETURNING_KEY, "1");
  publish();
}

/** Forgets the session in this browser, with a reason when the API ended it. */
export function signOut(reason: string | null = null): void {
  current = null;
  endedBecause = reason;
  store(null);
  void handOver(null);
  publish();
}

/** logOut ends the session on the server too, so its tokens stop working wherever they were copied. */
export async function logOut(): Promise<void> {
  const s = current;
  if (s) {
    await fetch("/auth/logout", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ refreshToken: s.refreshToken }),
    }).catch(() => {
      // Unreachable: the refresh token is forgotten here all the same, and the access token lapses within minutes.
    });
  }
  signOut();
}

export function sessionEndReason(): string | null {
  return endedBecause;
}

/** accessToken is the session's access token, renewed first when it is about to expire; null when signed out. */
export async function accessToken(): Promise<string | null> {
  const s = current;
  if (!s) return null;
  if (Date.now() < s.renewAt) return s.token;
  return (await renew(s.refreshToken))?.token ?? null;
}

/** renewAfter answers a token to retry with after the API refused `rejected`: another's renewal, or a new one. */
export async function renewAfter(rejected: string): Promise<string | null> {
  const s = current;
  if (!s) return null;
  if (s.token !== rejected) return s.token;
  return (await renew(s.refreshToken))?.token ?? null;
}

let renewal: Promise<Session | null> | null = null;

/** renew exchanges the refresh token once for the whole tab; null when the session has ended. */
function renew(stale: string): Promise<Session | null> {
  renewal ??= oneAtATime(() => exchange(stale)).finally(() => (renewal = null));
  return renewal;
}

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  // Web Locks exist in every current browser on https and localhost; elsewhere a tab renews alone.
  return "locks" in navigator ? (navigator.locks.request("shortener.renew", work) as Promise<T>) : work();
}

async function exchange(stale: string): Promise<Session | null> {
  const handed = await lastHandover<Session>();
  if (handed?.from === stale) {
    // Another tab renewed with this refresh token while this one waited for the lock: use its tokens.
    current = handed.to;
    publish();
    return current;
  }
  const stored = read();
  if (!stored || stored.refreshToken !== stale) {
    // Another tab renewed (or signed out) while this one waited: use what it stored.
    current = stored;
    publish();
    return stored;
  }
  const res = await fetch("/auth/refresh", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ refreshToken: stale }),
  });
  if (res.status === 401) {
    signOut(SESSION_ENDED);
    return null;
  }
  if (!res.ok) throw new Error(`could not renew the session (status ${res.status})`);
  const tokens = (await res.json()) as SessionTokens;
  current = { ...stored, ...tokens, renewAt: renewAtFor(tokens.token) };
  store(current);
  // Only a session kept for every tab is handed over: one kept in this tab alone stays out of storage that outlives it.
  if (current.persistent) await handOver({ from: stale, to: current });
  publish();
  return current;
}

/** Re-renders the caller whenever the session changes (in this tab or another). */
export function useSession(): Session | null {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => {
      listeners.delete(l);
    };
  }, []);
  return current;
}
