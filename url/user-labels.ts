// Emails to show beside user IDs, read from the auth service, which owns them.
import { auth } from "~encore/clients";

/** userLabels maps each ID among `ids` whose account exists to its email. */
export async function userLabels(ids: Iterable<string>): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const { users } = await auth.usersById({ ids: unique });
  return new Map(users.map((u) => [u.id, u.email]));
}
