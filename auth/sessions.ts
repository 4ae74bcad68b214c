// Sessions and their refresh tokens. A refresh token is 32 random bytes shown to the client once and
// stored only as its SHA-256. Each use exchanges it for a new one; a used one that comes back (a copy
// in someone else's hands, or a client that raced itself) ends the whole session, as RFC 9700 §4.14.2
// asks, since the server cannot tell which of the two holders is the rightful one.
import { createHash, randomBytes } from "node:crypto";
import { APIError } from "encore.dev/api";
import log from "encore.dev/log";
import type { Transaction } from "encore.dev/storage/sqldb";
import { inTransaction } from "../lib/transaction";
import { db } from "./db";

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * SESSION_LIFETIMES: how long a session may go unused before it ends, and how long it may last at
 * most however often it is used. "Stay signed in" is the persistent kind; without it the web app keeps
 * the session for its tab only, and the server ends it after half a day unused or a day in all.
 */
export const SESSION_LIFETIMES = {
  persistent: { idleSeconds: 30 * DAY, absoluteSeconds: 90 * DAY },
  transient: { idleSeconds: 12 * HOUR, absoluteSeconds: DAY },
} as const;

/** Why a session ended, as sessions.end_reason records it. */
export type EndReason = "logout" | "password changed" | "refresh token reused" | "banned";

/** REFRESH_TOKEN_PREFIX marks refresh tokens, so one pasted where an access token belongs is recognisable. */
export const REFRESH_TOKEN_PREFIX = "rt_";

// The prefix and 32 random bytes in base64url (43 characters).
const REFRESH_TOKEN = /^rt_[A-Za-z0-9_-]{43}$/;

/** How many long-gone sessions each new one removes: more than the one it adds, so the table stays bounded. */
const PRUNE_PER_SESSION = 10;

/** How long an ended or expired session is kept, so its access tokens are refused as ended rather than unknown. */
const KEEP_ENDED_SECONDS = 7 * DAY;

/** SessionGrant is a session's id and its newest refresh token, with when the session ends if unused. */
export interface SessionGrant {
  sessionID: string;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** RefreshedSession is a grant for the user the session belongs to. */
export interface RefreshedSession extends SessionGrant {
  user: { id: string; email: string };
}

function newRefreshToken(): { token: string; hash: string } {
  const token = REFRESH_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  return { token, hash: hashRefreshToken(token) };
}

/** hashRefreshToken is the stored form of a refresh token: hex SHA-256 (the token has 256 random bits, so no salt or stretching is needed). */
export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** startSession opens a session for the user and gives it its first refresh token. */
export async function startSession(userID: string, persistent: boolean): Promise<SessionGrant> {
  const { token, hash } = newRefreshToken();
  const { idleSeconds } = persistent ? SESSION_LIFETIMES.persistent : SESSION_LIFETIMES.transient;
  const session = await inTransaction(db, async (tx) => {
    const row = await tx.queryRow<{ id: string; expires_at: Date }>`
      INSERT INTO sessions (user_id, persistent, expires_at)
      VALUES (${userID}::text::bigint, ${persistent}, now() + ${idleSeconds}::integer * interval '1 second')
      RETURNING id::text AS id, expires_at
    `;
    await tx.exec`INSERT INTO refresh_tokens (token_hash, session_id) VALUES (${hash}, ${row!.id}::text::bigint)`;
    return row!;
  });
  await pruneGoneSessions();
  return { sessionID: session.id, refreshToken: token, refreshExpiresAt: session.expires_at };
}

/**
 * rotateRefreshToken exchanges a refresh token for a new one and pushes the session's end forward.
 * Two exchanges of one token never both succeed: the first marks it used under a row lock, and the
 * second, finding it used, ends the session. Anything else is unauthenticated.
 */
export async function rotateRefreshToken(token: string): Promise<RefreshedSession> {
  if (!REFRESH_TOKEN.test(token)) throw APIError.unauthenticated("invalid refresh token");
  const next = newRefreshToken();
  const outcome = await inTransaction(db, async (tx) => {
    const used = await tx.queryRow<{ session_id: string }>`
      UPDATE refresh_tokens SET used_at = now()
      WHERE token_hash = ${hashRefreshToken(token)} AND used_at IS NULL
      RETURNING session_id::text AS session_id
    `;
    if (used === null) return null;
    const session = await extendSession(tx, used.session_id);
    if (session === null) return "ended" as const;
    await tx.exec`INSERT INTO refresh_tokens (token_hash, session_id) VALUES (${next.hash}, ${used.session_id}::text::bigint)`;
    return session;
  });
  if (outcome === "ended") throw APIError.unauthenticated("session has ended");
  if (outcome === null) await refuseUnusableToken(token);
  const session = outcome!;
  return {
    sessionID: session.id,
    refreshToken: next.token,
    refreshExpiresAt: session.expires_at,
    user: { id: session.user_id, email: session.email },
  };
}

/** extendSession slides a live session's end (within its absolute lifetime); null when it has ended, expired or its user is banned. */
async function extendSession(tx: Transaction, sessionID: string) {
  const { persistent, transient } = SESSION_LIFETIMES;
  return tx.queryRow<{ id: string; user_id: string; email: string; expires_at: Date }>`
    UPDATE sessions s SET
      refreshed_at = now(),
      expires_at = LEAST(
        now() + (CASE WHEN s.persistent THEN ${persistent.idleSeconds}::integer ELSE ${transient.idleSeconds}::integer END) * interval '1 second',
        s.created_at + (CASE WHEN s.persistent THEN ${persistent.absoluteSeconds}::integer ELSE ${transient.absoluteSeconds}::integer END) * interval '1 second'
      )
    FROM users u
    WHERE s.id = ${sessionID}::text::bigint AND s.ended_at IS NULL AND s.expires_at > now()
      AND u.id = s.user_id AND u.banned_at IS NULL
    RETURNING s.id::text AS id, s.user_id::text AS user_id, u.email, s.expires_at
  `;
}

/** refuseUnusableToken throws for a token that could not be exchanged: unknown, or used before, which ends its session. */
async function refuseUnusableToken(token: string): Promise<never> {
  const sessionID = await sessionOfRefreshToken(token);
  if (sessionID === null) throw APIError.unauthenticated("invalid refresh token");
  if (await endSession(sessionID, "refresh token reused")) {
    log.warn("a used refresh token was presented again; its session has ended", { sessionID });
  }
  throw APIError.unauthenticated("refresh token was already used; the session has ended");
}

/** endSession ends one session, returning whether it was live. */
export async function endSession(sessionID: string, reason: EndReason): Promise<boolean> {
  const row = await db.queryRow<{ id: string }>`
    UPDATE sessions SET ended_at = now(), end_reason = ${reason}, expires_at = LEAST(expires_at, now())
    WHERE id = ${sessionID}::text::bigint AND ended_at IS NULL AND expires_at > now()
    RETURNING id::text AS id
  `;
  return row !== null;
}

/** sessionOfRefreshToken names the session a refresh token (used or not) was given to, or null for an unknown token. */
export async function sessionOfRefreshToken(token: string): Promise<string | null> {
  if (!REFRESH_TOKEN.test(token)) return null;
  const row = await db.queryRow<{ session_id: string }>`
    SELECT session_id::text AS session_id FROM refresh_tokens WHERE token_hash = ${hashRefreshToken(token)}
  `;
  return row?.session_id ?? null;
}

/** endSessionsOfUser ends every live session of a user but `keep`, in `tx` when given; returns how many ended. */
export async function endSessionsOfUser(
  userID: string,
  reason: EndReason,
  keep: string | null = null,
  tx: Pick<Transaction, "queryAll"> = db,
): Promise<number> {
  const rows = await tx.queryAll<{ id: string }>`
    UPDATE sessions SET ended_at = now(), end_reason = ${reason}, expires_at = LEAST(expires_at, now())
    WHERE user_id = ${userID}::text::bigint AND ended_at IS NULL AND expires_at > now()
      AND (${keep}::text IS NULL OR id <> ${keep}::text::bigint)
    RETURNING id::text AS id
  `;
  return rows.length;
}

/** SessionCheck is what the auth handler learns of an access token's session: its user, and whether it is live. */
export interface SessionCheck {
  user: { id: string; email: string };
  live: boolean;
}

/**
 * checkSession reads the session and its (unbanned) user in one statement on two primary keys: the
 * auth handler runs it on every request, so ending a session ends its access tokens at once.
 */
export async function checkSession(sessionID: string, userID: string): Promise<SessionCheck | null> {
  const row = await db.queryRow<{ id: string; email: string; live: boolean }>`
    SELECT u.id::text AS id, u.email, s.ended_at IS NULL AND s.expires_at > now() AS live
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${sessionID}::text::bigint AND s.user_id = ${userID}::text::bigint AND u.banned_at IS NULL
  `;
  return row ? { user: { id: row.id, email: row.email }, live: row.live } : null;
}

/** pruneGoneSessions deletes a few sessions (and their tokens) that ended or expired over a week ago. */
async function pruneGoneSessions(): Promise<void> {
  await db.exec`
    DELETE FROM sessions WHERE id IN (
      SELECT id FROM sessions WHERE expires_at < now() - ${KEEP_ENDED_SECONDS}::integer * interval '1 second'
      LIMIT ${PRUNE_PER_SESSION}
    )
  `;
}
