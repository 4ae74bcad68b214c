// App status and the live log stream (the app's stdout and stderr).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { html, ms } from "./html.js";
import { Loading, getJson, useJson, useStream } from "./api.js";

export function StatusView() {
  const [status, error] = useJson("/api/status");
  const [lines, setLines] = useState([]);
  const bottom = useRef(null);
  useEffect(() => {
    getJson("/api/logs").then(setLines, () => {});
  }, []);
  const onLine = useCallback((line) => setLines((old) => [...old.slice(-999), line]), []);
  useStream("log", onLine);
  useEffect(() => bottom.current?.scrollIntoView({ block: "end" }), [lines]);
  if (!status) return html`<${Loading} error=${error} />`;
  return html`
    <section>
      <h2>App <span class="pill ok" data-testid="app-status">running</span></h2>
      <dl class="facts">
        <dt>API</dt><dd><a href=${status.apiBaseUrl} target="_blank">${status.apiBaseUrl}</a></dd>
        <dt>Process</dt><dd>pid ${status.pid}, up ${ms(status.uptimeMs)}</dd>
        <dt>App</dt><dd>${status.services} services, ${status.endpoints} endpoints</dd>
        <dt>Tracing</dt><dd>${status.tracing.enabled ? `on, last ${status.tracing.capacity} traces, sampling ${status.tracing.sampleRate * 100}%` : "off (LOCAL_TRACE=0)"}</dd>
      </dl>
      <h2>Output</h2>
      <pre class="logs" data-testid="logs">${lines.map((l) => html`<div class=${l.stream}>${l.text}</div>`)}<span ref=${bottom}></span></pre>
    </section>
  `;
}
