// The object browser, cron jobs (run now, see the trace), and Pub/Sub queues.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.js";
import { Loading, sendJson, useJson, useStream } from "./api.js";

function BucketObjects({ bucket }) {
  const [prefix, setPrefix] = useState("");
  const [objects, error, reload] = useJson(`/api/buckets/${bucket.name}/objects?prefix=${encodeURIComponent(prefix)}`, [prefix]);
  return html`
    <div class="card" data-testid="bucket" data-bucket=${bucket.name}>
      <h3>${bucket.name} ${bucket.public ? html`<span class="pill">public</span>` : null} <button class="small" onClick=${reload}>Refresh</button></h3>
      <input placeholder="filter by prefix" aria-label="filter by prefix" value=${prefix} onInput=${(e) => setPrefix(e.target.value)} />
      ${
        !objects
          ? html`<${Loading} error=${error} />`
          : html`
        <table class="list">
          <thead><tr><th>Object</th><th>Size</th><th>Type</th><th></th></tr></thead>
          <tbody>
            ${objects.map((o) => {
              const href = `/api/buckets/${bucket.name}/objects/${encodeURIComponent(o.name)}`;
              return html`<tr data-testid="object" data-object=${o.name}>
                <td><code>${o.name}</code></td><td>${o.size} B</td><td>${o.contentType ?? ""}</td>
                <td>${o.contentType?.startsWith("image/") ? html`<img class="thumb" src=${href} alt=${o.name} />` : null} <a href=${href} target="_blank" data-testid="open-object">open</a></td>
              </tr>`;
            })}
          </tbody>
        </table>
        ${objects.length === 0 ? html`<p class="muted">No objects${prefix ? ` under "${prefix}"` : ""}.</p>` : null}`
      }
    </div>
  `;
}

export function Objects() {
  const [buckets, error] = useJson("/api/buckets");
  if (!buckets) return html`<${Loading} error=${error} />`;
  return html`<section><h2>Object browser</h2>${buckets.map((b) => html`<${BucketObjects} bucket=${b} />`)}</section>`;
}

export function Cron() {
  const [jobs, error] = useJson("/api/cron");
  const [runs, setRuns] = useState({});
  if (!jobs) return html`<${Loading} error=${error} />`;
  const run = async (id) => {
    setRuns((r) => ({ ...r, [id]: { busy: true } }));
    try {
      const result = await sendJson(`/api/cron/${id}/run`, "POST");
      setRuns((r) => ({ ...r, [id]: { result } }));
    } catch (e) {
      setRuns((r) => ({ ...r, [id]: { result: { ok: false, error: { message: e.message } } } }));
    }
  };
  return html`
    <section>
      <h2>Cron jobs</h2>
      <p class="muted">Encore never runs cron jobs locally; "Run now" calls the job's endpoint once, traced like a scheduled run. (Encore's own dashboard has no such button.)</p>
      <table class="list">
        <thead><tr><th>Job</th><th>Schedule</th><th>Endpoint</th><th>Next run (UTC)</th><th></th></tr></thead>
        <tbody>
          ${jobs.map((j) => {
            const state = runs[j.id];
            const result = state?.result;
            return html`<tr data-testid="cron" data-cron=${j.id}>
              <td>${j.title ?? j.id}<br /><code class="muted">${j.id}</code></td>
              <td><code>${j.schedule ?? `every ${j.everyMs / 1000}s`}</code></td>
              <td><code>${j.endpoint.service}.${j.endpoint.name}</code></td>
              <td>${j.nextRun}</td>
              <td>
                <button data-testid="run-cron" disabled=${state?.busy} onClick=${() => run(j.id)}>Run now</button>
                ${result ? html` <span class="pill ${result.ok ? "ok" : "bad"}">${result.ok ? "done" : `failed: ${result.error?.message}`}</span>` : null}
                ${result?.traceId ? html` <a data-testid="cron-trace" href="#/traces/${result.traceId}">trace</a>` : null}
              </td>
            </tr>`;
          })}
        </tbody>
      </table>
    </section>
  `;
}

/**
 * Calls reload after trace events, at most every 200 ms (a burst of deliveries is hundreds of events),
 * and every 2 s regardless, so the counts stay live whatever moved them.
 */
function useLiveReload(reload) {
  const pending = useRef(null);
  const onTrace = useCallback(() => {
    pending.current ??= setTimeout(() => {
      pending.current = null;
      reload();
    }, 200);
  }, []);
  useStream("trace", onTrace);
  useEffect(() => {
    const timer = setInterval(reload, 2000);
    return () => {
      clearInterval(timer);
      clearTimeout(pending.current);
    };
  }, []);
}

export function PubSub() {
  const [topics, error, reload] = useJson("/api/pubsub");
  useLiveReload(reload);
  if (!topics) return html`<${Loading} error=${error} />`;
  return html`
    <section>
      <h2>Topics and subscriptions</h2>
      ${topics.map(
        (t) => html`
          <div class="card" data-testid="topic" data-topic=${t.name}>
            <h3>${t.name} <span class="muted">published by ${t.publishers.join(", ") || "no service"}</span></h3>
            <table class="list">
              <thead><tr><th>Subscription</th><th>Service</th><th>Queued</th><th>In flight</th><th>Retrying</th></tr></thead>
              <tbody>
                ${t.subscriptions.map(
                  (s) => html`<tr data-testid="subscription" data-subscription=${s.subscription}>
                    <td>${s.subscription}${s.subscribed ? "" : html` <span class="pill bad">not subscribed</span>`}</td>
                    <td>${s.service}</td><td data-testid="queued">${s.queued}</td><td data-testid="in-flight">${s.inFlight}</td><td data-testid="retrying">${s.retrying}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>
        `,
      )}
    </section>
  `;
}
