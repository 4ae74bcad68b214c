// The signed-in session: the API's token, kept in localStorage so a reload stays signed in.
import { useEffect, useState } from "preact/hooks";

export interface Session {
  token: string;
  email: string;
  /** When the token stops being accepted (ISO time from the API). */
  expiresAt: string;
}

const KEY = "shortener.session";
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) ?? "null") as Session | null;
    return s && Date.parse(s.expiresAt) > Date.now() ? s : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();
/** Why the last session ended without the user asking (a 401), shown on the log-in form. */
let endedBecause: string | null = null;

function publish(): void {
  for (const l of listeners) l();
}

export function currentSession(): Session | null {
  return current;
}

export function signIn(s: Session): void {
  current = s;
  endedBecause = null;
  localStorage.setItem(KEY, JSON.stringify(s));
  publish();
}

/** Ends the session: on log out, or with a reason when the API refused the token. */
export function signOut(reason: string | null = null): void {
  current = null;
  endedBecause = reason;
  localStorage.removeItem(KEY);
  publish();
}

export function sessionEndReason(): string | null {
  return endedBecause;
}

/** Re-renders the caller whenever the session changes (in this tab or another). */
export function useSession(): Session | null {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    const onStorage = (e: StorageEvent) => {
      if (e.key !== KEY) return;
      current = read();
      l();
    };
    listeners.add(l);
    addEventListener("storage", onStorage);
    return () => {
      listeners.delete(l);
      removeEventListener("storage", onStorage);
    };
  }, []);
  return current;
}
