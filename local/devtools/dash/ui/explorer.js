/* global location */
// The API explorer: pick an endpoint, fill a typed field per path, query and header parameter and a
// JSON body (all pre-filled from the schema with values its validation accepts; optional ones left
// out), call it through the gateway or copy it as curl, and jump to the trace of the call.
import { useState } from "preact/hooks";
import { html, ms, pretty } from "./html.js";
import { Loading, sendJson, useJson } from "./api.js";
import { typeText } from "./schema.js";
import { Markdown } from "./markdown.js";
import { curlCommand, requestOf } from "./request.js";

export function Explorer({ endpoint }) {
  const [catalog, error] = useJson("/api/catalog");
  const [status] = useJson("/api/status");
  if (!catalog || !status) return html`<${Loading} error=${error} />`;
  const services = catalog.services.map((s) => ({ name: s.name, endpoints: s.endpoints.filter((e) => e.expose) }));
  const endpoints = services.flatMap((s) => s.endpoints);
  const ep = endpoints.find((e) => e.id === endpoint) ?? endpoints[0];
  return html`<${ExplorerPage} key=${ep.id} services=${services} ep=${ep} baseUrl=${status.apiBaseUrl} />`;
}

/** One endpoint's page; the endpoint is in the address (#/explorer/<service.endpoint>), so a pick can be linked and reloaded. */
function ExplorerPage({ services, ep, baseUrl }) {
  const [method, setMethod] = useState(ep.methods[0]);
  const m = ep.methods.includes(method) ? method : ep.methods[0];
  const choose = (next) => (location.hash = `#/explorer/${next}`);
  return html`
    <section class="explorer">
      <h2>API explorer</h2>
      <label>Endpoint
        <select data-testid="endpoint" value=${ep.id} onChange=${(e) => choose(e.target.value)}>
          ${services.map(
            (s) => html`<optgroup label=${s.name}>
              ${s.endpoints.map((e) => html`<option value=${e.id}>${e.id} — ${e.methods.join(",")} ${e.path}${e.auth ? " (auth)" : ""}</option>`)}
            </optgroup>`,
          )}
        </select>
      </label>
      ${ep.doc ? html`<${Markdown} class="doc" text=${ep.doc} />` : null}
      <${CallForm} key=${`${ep.id} ${m}`} ep=${ep} method=${m} setMethod=${setMethod} baseUrl=${baseUrl} />
    </section>
  `;
}

/** A field's input: a choice for booleans and literal unions, a number field for numbers, text otherwise. */
function ParamInput({ param, value, onInput }) {
  const t = param.type?.kind === "validated" ? param.type.base : param.type;
  const literals = t?.kind === "union" && t.types.every((x) => x.kind === "literal") ? t.types.map((x) => String(x.value)) : null;
  const choices = t?.kind === "boolean" ? ["true", "false"] : literals;
  const common = { "data-testid": "param", "data-param": param.name, "aria-label": param.name };
  if (choices) {
    return html`<select ...${common} value=${value} onChange=${(e) => onInput(e.target.value)}>
      ${param.optional ? html`<option value="">(left out)</option>` : null}
      ${choices.map((c) => html`<option>${c}</option>`)}
    </select>`;
  }
  const numeric = t?.kind === "number";
  return html`<input ...${common} type=${numeric ? "number" : "text"} value=${value}
    placeholder=${param.optional ? "left out" : "required"} onInput=${(e) => onInput(e.target.value)} />`;
}

function CallForm({ ep, method, setMethod, baseUrl }) {
  const form = ep.forms[method];
  const [values, setValues] = useState(() => Object.fromEntries(form.params.map((p) => [`${p.place}:${p.name}`, p.value])));
  const initialBody = form.body === null ? "" : JSON.stringify(form.body, null, 2);
  const [body, setBody] = useState(initialBody);
  const [token, setToken] = useState(localStorage.getItem("dash.token") ?? "");
  const [result, setResult] = useState(null);
  const [busy, setBusy] = useState(false);
  const [curl, setCurl] = useState(null);

  const request = requestOf(ep.path, method, form.params, values, form.body === null ? null : body, token);
  let bodyError = null;
  if (form.body !== null && body.trim() !== "") {
    try {
      JSON.parse(body);
    } catch (e) {
      bodyError = e.message;
    }
  }
  const missing = form.params.filter((p) => !p.optional && values[`${p.place}:${p.name}`] === "").map((p) => p.name);

  const send = async () => {
    setBusy(true);
    localStorage.setItem("dash.token", token);
    try {
      setResult(await sendJson("/api/call", "POST", request));
    } catch (e) {
      setResult({ failed: e.message });
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    const text = curlCommand(baseUrl, request);
    setCurl(text);
    await navigator.clipboard?.writeText(text).catch(() => {});
  };

  return html`
    <div class="call-form">
      <div class="line">
        <select data-testid="method" value=${method} onChange=${(e) => setMethod(e.target.value)}>
          ${ep.methods.map((x) => html`<option>${x}</option>`)}
        </select>
        <code class="grow url" data-testid="path">${request.path}</code>
      </div>
      ${
        form.params.length > 0
          ? html`<table class="params" data-testid="params">
        <thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Value</th></tr></thead>
        <tbody>
          ${form.params.map((p) => {
            const k = `${p.place}:${p.name}`;
            return html`<tr>
              <td><code>${p.name}${p.optional ? "?" : ""}</code></td>
              <td>${p.place}</td>
              <td><code>${p.type ? typeText(p.type) : "string"}</code></td>
              <td><${ParamInput} param=${p} value=${values[k]} onInput=${(v) => setValues({ ...values, [k]: v })} /></td>
            </tr>`;
          })}
        </tbody>
      </table>`
          : null
      }
      <label>Bearer token ${ep.auth ? html`<span class="pill">required</span>` : null}
        <input data-testid="token" value=${token} placeholder="from POST /auth/login or /auth/signup" onInput=${(e) => setToken(e.target.value)} />
      </label>
      ${
        form.body !== null
          ? html`<label>JSON body ${ep.raw ? html`<span class="muted">(raw endpoint: sent as written)</span>` : null}
        <textarea data-testid="body" class="json ${bodyError ? "invalid" : ""}" rows=${Math.min(Math.max(body.split("\n").length + 1, 4), 20)}
          spellcheck="false" value=${body} onInput=${(e) => setBody(e.target.value)}></textarea>
      </label>
      ${bodyError ? html`<p class="error" data-testid="body-error">Not valid JSON: ${bodyError}</p>` : null}
      ${html`<${BodyFields} ep=${ep} method=${method} />`}`
          : null
      }
      <div class="buttons">
        <button data-testid="send" disabled=${busy || missing.length > 0} onClick=${send}>${busy ? "Calling…" : "Call"}</button>
        <button class="secondary" data-testid="copy-curl" onClick=${copy}>Copy as curl</button>
        ${form.body !== null && body !== initialBody ? html`<button class="secondary" onClick=${() => setBody(initialBody)}>Reset body</button>` : null}
        ${missing.length ? html`<span class="muted">fill in ${missing.join(", ")}</span>` : null}
      </div>
      ${curl ? html`<pre class="curl" data-testid="curl">${curl}</pre>` : null}
      ${result ? html`<${Result} result=${result} />` : null}
    </div>
  `;
}

/** The body's fields from the schema, optional ones included, for what to add to the JSON. */
function BodyFields({ ep, method }) {
  const params = new Set(ep.forms[method].params.map((p) => p.name));
  const fields = (ep.request?.fields ?? []).filter((f) => !params.has(f.wireName) && f.location !== "cookie");
  if (fields.length === 0) return null;
  return html`<details class="body-fields"><summary>Body fields</summary>
    <ul>${fields.map((f) => html`<li><code>${f.wireName}${f.optional ? "?" : ""}: ${typeText(f.type)}</code></li>`)}</ul>
  </details>`;
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
