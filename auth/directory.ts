// Emails of accounts by ID, for services that show who did something (a link's creator, a workspace's
// members) without keeping their own copy of an email.
import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { db } from "./db";

/** UsersByIdRequest lists account IDs (decimal strings); others are ignored. */
export interface UsersByIdRequest {
  ids: string[] & MaxLen<1000>;
}

/** UserLabel is an account's ID and email. */
export interface UserLabel {
  id: string;
  email: string;
}

/** UsersByIdResponse holds the accounts that exist among those asked for. */
export interface UsersByIdResponse {
  users: UserLabel[];
}

const USER_ID = /^[1-9][0-9]{0,17}$/;

/** usersById returns the email of each existing account among `ids`. */
export const usersById = api({ expose: false }, async ({ ids }: UsersByIdRequest): Promise<UsersByIdResponse> => {
  const valid = [...new Set(ids.filter((id) => USER_ID.test(id)))];
  if (valid.length === 0) return { users: [] };
  const users = await db.queryAll<UserLabel>`
    SELECT id::text AS id, email FROM users WHERE id = ANY(${valid}::text[]::bigint[])
  `;
  return { users };
});
