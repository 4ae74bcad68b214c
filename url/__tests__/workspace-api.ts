// HTTP helpers for the workspace tests: JSON calls, signed-up people, and members joined by invitation.
// In __tests__ so Encore does not bundle it.
import { expect } from "vitest";
import type { Reply, TestApp } from "../../local/testing";
import type { Role } from "../roles";
import { signUp } from "./helpers";

/** Person is a signed-up user: its bearer token, ID and email. */
export interface Person {
  token: string;
  id: string;
  email: string;
}

/** workspaceApi binds the helpers to a file's test server. */
export function workspaceApi(app: TestApp) {
  const call = (method: string, path: string, token?: string, body?: unknown): Promise<Reply> =>
    app.call(method, path, { token, body, headers: { Accept: "application/json" } });
  /** ok sends a call that must succeed and returns its body. */
  const ok = async (method: string, path: string, token: string, body?: unknown) => {
    const reply = await call(method, path, token, body);
    expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(200);
    return reply.body;
  };
  const person = async (): Promise<Person> => {
    const token = await signUp(app.baseUrl);
    const me = await ok("GET", "/auth/me", token);
    return { token, id: me.id, email: me.email };
  };
  /** join makes a fresh user a member of the workspace with the role, through an invitation. */
  const join = async (workspaceId: string, inviter: Person, role: Exclude<Role, "owner">): Promise<Person> => {
    const who = await person();
    const invite = await ok("POST", `/workspaces/${workspaceId}/invites`, inviter.token, { role });
    expect(await ok("POST", `/invites/${invite.token}/accept`, who.token)).toMatchObject({ workspaceId, role });
    return who;
  };
  return { call, ok, person, join };
}
