// Queries on the users table. IDs travel as decimal strings (the AuthData contract): they are
// cast to text in SQL and back to bigint from a text parameter, because Encore's runtime binds a
// JS string only to text-like columns and returns int8 as a JS number.
import { db } from "./db";

/** User is an account as the API shows it; never includes the password hash. */
export interface User {
  /** The user's ID, a decimal string. */
  id: string;
  email: string;
  createdAt: Date;
}

interface UserRow {
  id: string;
  email: string;
  created_at: Date;
}

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, createdAt: row.created_at };
}

/** insertUser creates an account, or returns null when the email is already registered. */
export async function insertUser(email: string, passwordHash: string): Promise<User | null> {
  // ON CONFLICT covers the race where two signups for one email pass any earlier check.
  const row = await db.queryRow<UserRow>`
    INSERT INTO users (email, password_hash)
    VALUES (${email}, ${passwordHash})
    ON CONFLICT DO NOTHING
    RETURNING id::text AS id, email, created_at
  `;
  return row ? toUser(row) : null;
}

/** findUserWithHash looks an account up by normalized email, with its password hash and whether it is banned, for login. */
export async function findUserWithHash(email: string): Promise<(User & { passwordHash: string; banned: boolean }) | null> {
  const row = await db.queryRow<UserRow & { password_hash: string; banned: boolean }>`
    SELECT id::text AS id, email, created_at, password_hash, banned_at IS NOT NULL AS banned
    FROM users
    WHERE lower(email) = ${email}
  `;
  return row ? { ...toUser(row), passwordHash: row.password_hash, banned: row.banned } : null;
}

/** findUser looks an account up by ID (a decimal string); a banned account is not found, so its credentials stop working. */
export async function findUser(id: string): Promise<User | null> {
  const row = await db.queryRow<UserRow>`
    SELECT id::text AS id, email, created_at
    FROM users
    WHERE id = ${id}::text::bigint AND banned_at IS NULL
  `;
  return row ? toUser(row) : null;
}
