// `npm start` opens the development dashboard as `encore run` does: http://127.0.0.1:9400, or
// DASH_PORT (0 picks a free port, "off" disables it). Loopback only.
import path from "node:path";
import { onShutdown } from "../../runtime/lifecycle/run";
import { dataDir } from "../../model/layout.mjs";
import { OutputCapture } from "./output";
import { envPort } from "../../runtime/core/env-port";

const DEFAULT_PORT = 9400;

/** The port DASH_PORT asks for, or null when it turns the dashboard off. */
export function dashPort(env: NodeJS.ProcessEnv = process.env): number | null {
  return envPort("DASH_PORT", DEFAULT_PORT, env);
}

/** Starts the dashboard and the capture of the app's output; a busy port is reported, not fatal. */
export async function startDevDashboard(): Promise<void> {
  const port = dashPort();
  if (port === null) return;
  const output = new OutputCapture();
  try {
    // Loaded only now: the server starts the tracer, which the runtime then announces to.
    const { startDashboard } = await import("./server");
    const dash = await startDashboard(port, output, path.join(dataDir, "traces"));
    output.start();
    onShutdown(async () => {
      output.stop();
      await dash.close();
    });
    process.stdout.write(`Development dashboard on ${dash.url}\n`);
  } catch (e) {
    const busy = (e as NodeJS.ErrnoException).code === "EADDRINUSE";
    process.stderr.write(
      `development dashboard not started: ${busy ? `port ${port} is in use (set DASH_PORT to another port)` : (e as Error).message}\n`,
    );
  }
}
