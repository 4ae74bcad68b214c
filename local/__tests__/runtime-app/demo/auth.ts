import { APIError, Gateway, type Cookie, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  authorization?: Header<"Authorization">;
  session?: Cookie<"session">;
}

interface AuthData {
  userID: string;
}

// "Bearer good" or a "session=good" cookie signs in; "Bearer boom" is a broken handler; anything else is unauthenticated.
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization, session }) => {
  if (session?.value === "good") return { userID: "u2" };
  if (authorization === "Bearer good") return { userID: "u1" };
  if (authorization === "Bearer boom") throw new Error("auth backend down");
  throw APIError.unauthenticated("bad token");
});

export const gateway = new Gateway({ authHandler: auth });
