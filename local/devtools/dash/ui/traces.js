/* global location */
// The trace list (live) and the trace view: a waterfall of spans and their events, with details.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { html, ms } from "./html.js";
import { Loading, getJson, sendJson, useJson, useStream } from "./api.js";
import { waterfallRows, rowLabel } from "./waterfall.js";

function spanTitle(s) {
  if (s.kind === "pubsub_message") return `${s.subscription} ← ${s.topic}`;
  return `${s.service}.${s.endpoint ?? ""}`;
}

const STATUSES = [
  ["", "any status"],
  ["ok", "ok"],
  ["error", "error"],
  ["2xx", "2xx"],
  ["3xx", "3xx"],
  ["4xx", "4xx"],
  ["5xx", "5xx"],
];

/** The list's filter as a query string (empty criteria left out). */
function filterQuery(f) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) p.set(k, v);
  return p.toString();
}

/** The newest 200 summaries, one per trace: a later one in `items` replaces an earlier one of its trace. */
function newest(items) {
  return [...new Map(items.map((t) => [t.traceId, t])).values()].sort((a, b) => b.start - a.start).slice(0, 200);
}

export function TraceList() {
  const [filter, setFilter] = useState({ service: "", endpoint: "", status: "", q: "" });
  const [traces, setTraces] = useState(null);
  const [error, setError] = useState(null);
  const [catalog] = useJson("/api/catalog");
  const query = filterQuery(filter);
  // The list for the latest filter only: an answer for an earlier one that comes late is dropped.
  const latest = useRef(query);
  latest.current = query;
  // The summaries streamed while a list is being fetched: the answer may predate them, and must not drop them.
  const streamed = useRef(null);
  const load = useCallback(() => {
    const q = latest.current;
    const during = new Map();
    streamed.current = during;
    getJson(`/api/traces?${q}`).then(
      (list) => {
        if (streamed.current === during) streamed.current = null;
        if (q === latest.current) setTraces(q === "" ? newest([...list, ...during.values()]) : list);
      },
      (e) => setError(e.message),
    );
  }, []);
  useEffect(() => {
    load();
  }, [query]);
  // Live: unfiltered, each summary the server streams goes straight in; filtered, the server decides, so the list reloads (at most every 300 ms).
  const pending = useRef(null);
  const onTrace = useCallback((sum) => {
    if (latest.current === "") {
      streamed.current?.set(sum.traceId, sum);
      setTraces((old) => (old === null ? old : newest([...old, sum])));
      return;
    }
    pending.current ??= setTimeout(() => {
      pending.current = null;
      load();
    }, 300);
  }, []);
  useEffect(() => () => clearTimeout(pending.current), []);
  useStream("trace", onTrace);
  if (traces === null) return html`<${Loading} error=${error} />`;
  const clear = () => sendJson("/api/traces", "DELETE").then(() => setTraces([]));
  const set = (k) => (e) => setFilter({ ...filter, [k]: e.target.value, ...(k === "service" ? { endpoint: "" } : {}) });
  const service = catalog?.services.find((s) => s.name === filter.service);
  const names = service ? [...service.endpoints.map((e) => e.name), ...service.subscriptions.map((x) => x.name)] : [];
  return html`
    <section>
      <h2>Traces <button class="small" onClick=${clear}>Clear</button></h2>
      <div class="filters" data-testid="trace-filters">
        <select aria-label="service" data-testid="filter-service" value=${filter.service} onChange=${set("service")}>
          <option value="">all services</option>
          ${(catalog?.services ?? []).map((s) => html`<option>${s.name}</option>`)}
        </select>
        <select aria-label="endpoint" data-testid="filter-endpoint" value=${filter.endpoint} onChange=${set("endpoint")} disabled=${!service}>
          <option value="">all endpoints</option>
          ${names.map((n) => html`<option>${n}</option>`)}
        </select>
        <select aria-label="status" data-testid="filter-status" value=${filter.status} onChange=${set("status")}>
          ${STATUSES.map(([v, label]) => html`<option value=${v}>${label}</option>`)}
        </select>
        <input aria-label="search" data-testid="filter-q" class="grow" placeholder="search path, names, trace id, error" value=${filter.q} onInput=${set("q")} />
      </div>
      ${traces.length === 0 ? html`<p class="muted">${query ? "No trace matches." : "No traces yet: call an endpoint (the API explorer is one way)."}</p>` : null}
      <table class="list" data-testid="trace-list">
        <thead><tr><th>Started</th><th>What</th><th>Request</th><th>Status</th><th>Duration</th><th title="Rows of its waterfall: spans and their events, with the deliveries it caused">Spans</th></tr></thead>
        <tbody>
          ${traces.map(
            (t) => html`
              <tr class=${t.isError ? "failed" : ""} data-testid="trace-row" data-trace-id=${t.traceId} onClick=${() => (location.hash = `#/traces/${t.traceId}`)}>
                <td>${new Date(t.start).toLocaleTimeString()}</td>
                <td><span class="kind ${t.kind}">${t.kind === "pubsub_message" ? "message" : "request"}</span> ${spanTitle(t)}</td>
                <td>${t.method ? `${t.method} ${t.path}` : (t.messageId ?? "")}</td>
                <td>${t.status ?? (t.isError ? "error" : t.durationMs === undefined ? "running" : "ok")}</td>
                <td>${ms(t.durationMs)}</td>
                <td data-testid="span-count">${t.spans}</td>
              </tr>
            `,
          )}
        </tbody>
      </table>
    </section>
  `;
}

/** A trace and the traces it caused (Pub/Sub deliveries), reloaded as their spans start and end. */
export function TraceView({ id }) {
  const [data, setData] = useState(null);
  const [error, setError] = useState(null);
  const [selected, setSelected] = useState(null);
  const load = useCallback(() => getJson(`/api/traces/${id}`).then(setData, (e) => setError(e.message)), [id]);
  useEffect(() => {
    setData(null);
    setSelected(null);
    load();
  }, [id]);
  const onTrace = useCallback((sum) => (sum.traceId === id || sum.parentTraceId === id) && load(), [id, load]);
  useStream("trace", onTrace);
  if (data === null) return html`<${Loading} error=${error} />`;
  const rows = waterfallRows(data.trace, data.linked);
  const t0 = Math.min(...rows.map((r) => r.start));
  const t1 = Math.max(...rows.map((r) => r.start + (r.durationMs ?? Date.now() - r.start)));
  const span = Math.max(t1 - t0, 0.001);
  const current = selected === null ? rows[0] : (rows.find((r) => r.key === selected) ?? rows[0]);
  return html`
    <section>
      <h2><a href="#/traces">Traces</a> / <code data-testid="trace-id">${id}</code></h2>
      <div class="waterfall" data-testid="waterfall">
        ${rows.map(
          (r) => html`
            <div class="row ${r.type} ${r.kind} ${r.error ? "failed" : ""} ${r.key === current.key ? "selected" : ""}"
                 data-testid="row" data-kind=${r.kind} onClick=${() => setSelected(r.key)}>
              <div class="label" style=${`padding-left:${r.depth * 14 + 4}px`} title=${rowLabel(r)}>${rowLabel(r)}</div>
              <div class="track">
                <div class="bar" style=${`left:${((r.start - t0) / span) * 100}%;width:${Math.max(((r.durationMs ?? 0) / span) * 100, 0.4)}%`}></div>
              </div>
              <div class="dur">${r.kind === "log" ? "" : ms(r.durationMs)}</div>
            </div>
          `,
        )}
      </div>
      <${Details} row=${current} />
    </section>
  `;
}

function Field({ name, value }) {
  if (value === undefined || value === null || value === "") return null;
  return html`<dt>${name}</dt><dd>${typeof value === "object" ? html`<pre>${JSON.stringify(value, null, 2)}</pre>` : String(value)}</dd>`;
}

function Payload({ name, text }) {
  if (text === undefined || text === null) return null;
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: shown as it is.
  }
  return html`<dt>${name}</dt><dd><pre data-testid="payload">${shown}</pre></dd>`;
}

function Details({ row }) {
  const r = row.record;
  const error = r.error;
  return html`
    <div class="details" data-testid="details">
      <h3>${rowLabel(row)}</h3>
      ${error ? html`<p class="error" data-testid="error">${error.code ? `${error.code}: ` : ""}${error.message}</p>` : null}
      <dl class="facts">
        <${Field} name="Started" value=${new Date(row.start).toISOString()} />
        <${Field} name="Duration" value=${row.kind === "log" ? undefined : ms(row.durationMs)} />
        ${
          row.type === "span"
            ? html`
              <${Field} name="Trace" value=${r.traceId} />
              <${Field} name="Span" value=${r.spanId} />
              <${Field} name="Status" value=${r.responseStatus} />
              <${Field} name="Path params" value=${r.pathParams && Object.keys(r.pathParams).length ? r.pathParams : undefined} />
              <${Field} name="User" value=${r.uid} />
              <${Field} name="Message id" value=${r.messageId} />
              <${Field} name="Attempt" value=${r.attempt} />
              <${Field} name="Published" value=${r.publishedAt} />
              <${Payload} name=${r.kind === "auth" ? "Auth parameters" : r.kind === "pubsub_message" ? "Message" : "Request payload"} text=${r.requestPayload} />
              <${Payload} name=${r.kind === "auth" ? "Auth data" : "Response payload"} text=${r.kind === "auth" ? r.userData : r.responsePayload} />
              <${Field} name="Request headers" value=${r.requestHeaders} />
              <${Field} name="Response headers" value=${r.responseHeaders} />
              <${Field} name="Events dropped" value=${r.droppedEvents || undefined} />
            `
            : Object.entries(r.fields).map(([k, v]) =>
                k === "message"
                  ? html`<${Payload} name="Message" text=${v} />`
                  : k === "query"
                    ? html`<dt>Query</dt><dd><pre class="sql">${v}</pre></dd>`
                    : html`<${Field} name=${k} value=${v} />`,
              )
        }
      </dl>
    </div>
  `;
}
