// Under `npm start` with JWTSecret unset, tokens are signed with a development key that npm start
// generates once and keeps in the data directory, so a restart does not sign everybody out.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeLocal, freshAppState, removeAppState, startApp, type SpawnedApp } from "../local/testing";

const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

describeLocal("npm start without JWTSecret", () => {
  const state = freshAppState();
  let app: SpawnedApp;

  beforeAll(async () => {
    app = await startApp(appRoot, { JWTSecret: undefined }, state);
  });
  afterAll(async () => {
    await app?.stop();
    await removeAppState(state);
  });

  it("says at start-up that it generated the key and where it keeps it", () => {
    expect(app.output()).toMatch(
      /Secrets\s+unset: CronTriggerToken, ShortLinkBaseURL; JWTSecret generated for development, kept in \S+dev-secrets\.cue/,
    );
  });

  it("accepts a token issued before a restart", async () => {
    const signup = await fetch(`${app.baseUrl}/auth/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `restart-${randomUUID()}@example.com`, password: "correct horse battery" }),
    });
    expect(signup.status).toBe(200);
    const { token } = (await signup.json()) as { token: string };

    await app.stop();
    app = await startApp(appRoot, { JWTSecret: undefined }, state);
    const me = await fetch(`${app.baseUrl}/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(app.output()).toContain("JWTSecret generated for development");
  });
});
