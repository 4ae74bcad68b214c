/* global EventSource */
// Talking to the dashboard server: JSON calls and one shared server-sent event stream.
import { html } from "./html.js";
import { useEffect, useState } from "preact/hooks";

export async function getJson(path) {
  const res = await fetch(path);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? `${res.status}`);
  return body;
}

export async function sendJson(path, method, body) {
  const res = await fetch(path, { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });
  const out = await res.json();
  if (!res.ok) throw new Error(out.error ?? `${res.status}`);
  return out;
}

let source = null;
const listeners = { trace: new Set(), log: new Set(), batches: new Set() };

/** Calls fn(data) for every `event` ("trace", "log" or "batches") the server streams, while the component is mounted. */
export function useStream(event, fn) {
  useEffect(() => {
    if (source === null) {
      source = new EventSource("/api/stream");
      for (const name of Object.keys(listeners)) {
        source.addEventListener(name, (e) => listeners[name].forEach((f) => f(JSON.parse(e.data))));
      }
    }
    listeners[event].add(fn);
    return () => listeners[event].delete(fn);
  }, [event, fn]);
}

/** Loads `path` once (and again when `deps` change); returns [data, error, reload]. */
export function useJson(path, deps = []) {
  const [state, setState] = useState({ data: null, error: null });
  const load = () =>
    getJson(path).then(
      (data) => setState({ data, error: null }),
      (error) => setState({ data: null, error: error.message }),
    );
  useEffect(() => {
    load();
  }, [path, ...deps]);
  return [state.data, state.error, load];
}

/** The standard "loading / failed" placeholder. */
export function Loading({ error }) {
  return error ? html`<p class="error">${error}</p>` : html`<p class="muted">Loading…</p>`;
}
