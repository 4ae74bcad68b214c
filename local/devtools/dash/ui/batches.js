// The batches' transactional state, per queue, live: items queued, the batch in flight (size, age), and the
// last batches (size, duration, committed or failed with the error).
import { useCallback, useEffect, useState } from "preact/hooks";
import { html, ms } from "./html.js";
import { Loading, useJson, useStream } from "./api.js";

/** Re-renders every second, so the age of a batch in flight keeps counting between updates. */
function useTick() {
  const [, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(t);
  }, []);
}

function Queue({ q }) {
  const f = q.inFlight;
  const inFlight = f
    ? html`<span data-testid="in-flight">batch #${f.batch} in flight: ${f.size} items, ${ms(Math.max(0, Date.now() - f.startedAt))} old</span>`
    : html`<span data-testid="in-flight" class="muted">no batch in flight</span>`;
  return html`
    <div class="card" data-testid="batch-queue" data-queue=${q.name}>
      <h3>${q.name}</h3>
      <p><span data-testid="queued">${q.queued}</span> queued · ${inFlight}</p>
      <table class="list">
        <thead><tr><th>Batch</th><th>Started</th><th>Items</th><th>Duration</th><th>Outcome</th></tr></thead>
        <tbody>
          ${q.recent.map(
            (b) => html`<tr data-testid="batch" data-batch=${b.batch} data-size=${b.size} data-state=${b.state}>
              <td>#${b.batch}</td><td>${new Date(b.startedAt).toISOString()}</td><td>${b.size}</td><td>${ms(b.durationMs)}</td>
              <td><span class="pill ${b.state === "committed" ? "ok" : "bad"}">${b.state}</span>${b.error ? html` <span class="error">${b.error.message}</span>` : null}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  `;
}

export function Batches() {
  const [loaded, error] = useJson("/api/batches");
  const [live, setLive] = useState(null);
  useStream(
    "batches",
    useCallback((state) => setLive(state), []),
  );
  useTick();
  const queues = live ?? loaded;
  if (!queues) return html`<${Loading} error=${error} />`;
  return html`
    <section>
      <h2>Batches</h2>
      <p class="muted">
        Clicks, stats reads, analytics' link counts and outbox removals are batched: per queue, one statement (one transaction) in flight at a
        time takes everything queued meanwhile. Its SQL is in the trace of the request (or delivery) that opened the batch.
      </p>
      ${queues.length === 0 ? html`<p class="muted" data-testid="no-batches">No batch written since the dashboard started.</p>` : null}
      ${queues.map((q) => html`<${Queue} q=${q} />`)}
    </section>
  `;
}
