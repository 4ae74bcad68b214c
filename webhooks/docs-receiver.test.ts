// docs/webhooks.md's receiver, run as a reader would run it, against real deliveries from the app.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeLocal, drainTopic, useTestServer } from "../local/testing";
import { signUp } from "../url/__tests__/helpers";
import { relayLinkEvents } from "../url/link-events";
import { signedRequest } from "./send";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The page's one ```js block: the receiver. */
function documentedReceiver(): string {
  const page = fs.readFileSync(path.join(root, "docs/webhooks.md"), "utf8");
  const blocks = [...page.matchAll(/^```js\n([\s\S]*?)^```$/gm)];
  expect(blocks).toHaveLength(1);
  return blocks[0][1];
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describeLocal("the receiver in docs/webhooks.md", () => {
  const app = useTestServer();
  let receiver: ChildProcess | null = null;
  let printed = "";
  let file = "";

  beforeAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = "1";
    // Inside the app folder, so that `import "standardwebhooks"` finds node_modules as a reader's would.
    const dir = path.join(root, ".local", "docs-receiver");
    fs.mkdirSync(dir, { recursive: true });
    file = path.join(dir, `receiver-${process.pid}.mjs`);
    fs.writeFileSync(file, documentedReceiver());
  });

  afterAll(() => {
    delete process.env.WEBHOOKS_ALLOW_PRIVATE;
    receiver?.kill();
    fs.rmSync(file, { force: true });
  });

  it("verifies the app's deliveries, prints each event once and refuses a forged one", async () => {
    const token = await signUp(app.baseUrl);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const { body: hook } = await app.call("POST", "/webhooks", { token, body: { url, events: ["link.created"] } });
    receiver = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: hook.secret, PORT: String(port) } });
    receiver.stdout!.on("data", (d) => (printed += d));
    for (
      let i = 0;
      i < 100 &&
      !(await fetch(url, { method: "POST" }).then(
        () => true,
        () => false,
      ));
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }

    const test = await app.call("POST", `/webhooks/${hook.id}/test`, { token, body: {} });
    expect(test.body).toMatchObject({ delivered: true, statusCode: 204, error: null });
    const { body: link } = await app.call("POST", "/shorten", { token, body: { url: "https://example.com/documented" } });
    await relayLinkEvents();
    await drainTopic("link-events");
    await drainTopic("webhook-deliveries");

    const forgedBody = JSON.stringify({ type: "link.deleted", timestamp: new Date(), data: {} });
    const forged = await fetch(url, {
      method: "POST",
      headers: signedRequest(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, "evt_forged", forgedBody),
      body: forgedBody,
    });
    expect(forged.status).toBe(400);

    const lines = printed
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { id: test.body.eventId, type: "webhook.test", data: { webhookId: hook.id } },
      {
        id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
        type: "link.created",
        data: expect.objectContaining({ code: link.code, url: "https://example.com/documented" }),
      },
    ]);
  });
});
