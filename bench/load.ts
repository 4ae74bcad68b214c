// One measured phase of `npm run bench`: autocannon drives a fixed number of requests, so every sent
// request is answered and counted (a run cut off by a timer would leave clicks the server committed
// but the load generator never saw). The number comes from two warm-ups (two requests per connection,
// then about a second's worth), so a run lasts about as long as asked whatever its speed.
import autocannon from "autocannon";

/** What a phase sends: a fixed request or one built per request, and the status every answer must have. */
export interface PhaseSpec {
  name: string;
  url: string;
  expect: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Builds each request's path and body (both default to the URL's path and no body). */
  next?: () => { path: string; body?: string };
  /** Concurrent connections, when not BENCH_CONNECTIONS. */
  connections?: number;
}

/** A phase's figures; `expected` counts answers with the expected status. */
export interface PhaseResult {
  name: string;
  requests: number;
  expected: number;
  /** Answers with another status, connection errors and timeouts, e.g. "429: 12, errors: 3". */
  unexpected: string;
  perSecond: number;
  p50: number;
  p99: number;
}

const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** About how long each phase is measured, over all its rounds (BENCH_SECONDS). */
export const phaseSeconds = Number(process.env.BENCH_SECONDS ?? 10);

/** The connections a phase is sent over: its own count, or BENCH_CONNECTIONS. */
const connectionsOf = (spec: PhaseSpec) => spec.connections ?? connections;

/** autocannon's result, and the seconds from the start to the last answer (its own duration is rounded up to a 1 s sample). */
async function fire(spec: PhaseSpec, amount: number): Promise<{ result: autocannon.Result; seconds: number }> {
  const url = new URL(spec.url);
  const next = spec.next;
  const started = performance.now();
  let lastAnswer = started;
  let run!: autocannon.Instance;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    run = autocannon(
      {
        url: url.origin,
        connections: Math.min(connectionsOf(spec), amount),
        amount,
        timeout: 60,
        requests: [
          {
            method: spec.method ?? "GET",
            path: url.pathname + url.search,
            headers: spec.headers,
            ...(next && { setupRequest: (req: autocannon.Request) => ({ ...req, ...next() }) }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
  run.on("response", () => (lastAnswer = performance.now()));
  const result = await done;
  return { result, seconds: Math.max(lastAnswer - started, 1) / 1000 };
}

function summarize(spec: PhaseSpec, runs: autocannon.Result[]): Omit<PhaseResult, "perSecond" | "p50" | "p99"> {
  const byStatus = new Map<string, number>();
  let requests = 0;
  let expected = 0;
  for (const r of runs) {
    for (const [status, stat] of Object.entries(r.statusCodeStats ?? {})) {
      const count = stat.count ?? 0;
      requests += count;
      if (Number(status) === spec.expect) expected += count;
      else byStatus.set(status, (byStatus.get(status) ?? 0) + count);
    }
    if (r.errors) byStatus.set("errors", (byStatus.get("errors") ?? 0) + r.errors);
  }
  const unexpected = [...byStatus].map(([k, n]) => `${k}: ${n}`).join(", ");
  return { name: spec.name, requests, expected, unexpected };
}

/** Sends about `forSeconds` worth of requests at the rate the previous run reached. */
function fireFor(spec: PhaseSpec, previous: { result: autocannon.Result; seconds: number }, forSeconds: number) {
  const rate = previous.result.requests.total / previous.seconds;
  return fire(spec, Math.max(connectionsOf(spec), Math.round(rate * forSeconds)));
}

/** Runs the warm-ups and then about `forSeconds` of load; the figures are the last run's. */
export async function runPhase(spec: PhaseSpec, forSeconds = phaseSeconds): Promise<PhaseResult> {
  const first = await fire(spec, connectionsOf(spec) * 2);
  const second = await fireFor(spec, first, 1);
  const main = await fireFor(spec, second, forSeconds);
  return {
    ...summarize(spec, [first.result, second.result, main.result]),
    perSecond: main.result.requests.total / main.seconds,
    p50: main.result.latency.p50,
    p99: main.result.latency.p99,
  };
}
