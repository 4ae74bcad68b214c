import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { findUser, type User } from "./users";

/** me returns the signed-in user's account. */
export const me = api({ expose: true, auth: true, method: "GET", path: "/auth/me" }, async (): Promise<User> => {
  const auth = getAuthData();
  if (!auth) throw APIError.unauthenticated("not signed in");
  const user = await findUser(auth.userID);
  if (!user) throw APIError.notFound("user not found");
  return user;
});
