// The API explorer: pick an endpoint, edit path, body and token, call it through the gateway and
// jump to the trace of the call.
import { useEffect, useState } from "preact/hooks";
import { html, ms, pretty } from "./html.js";
import { Loading, sendJson, useJson } from "./api.js";
import { callTemplate } from "./schema.js";

export function Explorer({ endpoint }) {
  const [catalog, error] = useJson("/api/catalog");
  if (!catalog) return html`<${Loading} error=${error} />`;
  const endpoints = catalog.services.flatMap((s) => s.endpoints).filter((e) => e.expose);
  return html`<${ExplorerForm} endpoints=${endpoints} initial=${endpoint ?? endpoints[0]?.id} />`;
}

function ExplorerForm({ endpoints, initial }) {
  const [id, setId] = useState(initial);
  const ep = endpoints.find((e) => e.id === id) ?? endpoints[0];
  const [method, setMethod] = useState(ep.methods[0]);
  // Filled from the endpoint in the first render, so the form never shows (or sends) an empty path.
  const [path, setPath] = useState(() => callTemplate(ep, ep.methods[0]).path);
  const [body, setBody] = useState(() => callTemplate(ep, ep.methods[0]).body);
  const [token, setToken] = useState(localStorage.getItem("dash.token") ?? "");
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const m = ep.methods[0];
    setMethod(m);
    const t = callTemplate(ep, m);
    setPath(t.path);
    setBody(t.body);
    setResult(null);
  }, [ep.id]);

  const send = async () => {
    setBusy(true);
    localStorage.setItem("dash.token", token);
    try {
      setResult(await sendJson("/api/call", "POST", { method, path, body: body || undefined, token: token || undefined }));
    } catch (e) {
      setResult({ failed: e.message });
    } finally {
      setBusy(false);
    }
  };

  return html`
    <section class="explorer">
      <h2>API explorer</h2>
      <label>Endpoint
        <select data-testid="endpoint" value=${ep.id} onChange=${(e) => setId(e.target.value)}>
          ${endpoints.map((e) => html`<option value=${e.id}>${e.id} — ${e.methods.join(",")} ${e.path}${e.auth ? " (auth)" : ""}</option>`)}
        </select>
      </label>
      ${ep.doc ? html`<p class="doc">${ep.doc}</p>` : null}
      <div class="line">
        <select data-testid="method" value=${method} onChange=${(e) => setMethod(e.target.value)}>
          ${ep.methods.map((m) => html`<option>${m}</option>`)}
        </select>
        <input data-testid="path" class="grow" value=${path} onInput=${(e) => setPath(e.target.value)} />
      </div>
      <label>Bearer token ${ep.auth ? html`<span class="pill">required</span>` : null}
        <input data-testid="token" value=${token} placeholder="from POST /auth/login or /auth/signup" onInput=${(e) => setToken(e.target.value)} />
      </label>
      <label>JSON body
        <textarea data-testid="body" rows="8" value=${body} onInput=${(e) => setBody(e.target.value)}></textarea>
      </label>
      <button data-testid="send" disabled=${busy} onClick=${send}>${busy ? "Calling…" : "Call"}</button>
      ${result ? html`<${Result} result=${result} />` : null}
    </section>
  `;
}

function Result({ result }) {
  if (result.failed) return html`<p class="error">${result.failed}</p>`;
  return html`
    <div class="result" data-testid="result">
      <p>
        <span class="pill ${result.status < 400 ? "ok" : "bad"}" data-testid="status">${result.status}</span>
        ${" "}${ms(result.durationMs)}
        ${result.traceId ? html` · <a data-testid="trace-link" href="#/traces/${result.traceId}">View trace</a>` : null}
      </p>
      <pre data-testid="response">${pretty(result.body)}</pre>
      <details><summary>Response headers</summary><pre>${JSON.stringify(result.headers, null, 2)}</pre></details>
    </div>
  `;
}
