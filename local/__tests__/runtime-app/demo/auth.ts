import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";

interface AuthParams {
  authorization: Header<"Authorization">;
}

interface AuthData {
  userID: string;
}

// "Bearer good" signs in; "Bearer boom" is a broken handler; anything else is unauthenticated.
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  if (authorization === "Bearer good") return { userID: "u1" };
  if (authorization === "Bearer boom") throw new Error("auth backend down");
  throw APIError.unauthenticated("bad token");
});

export const gateway = new Gateway({ authHandler: auth });
