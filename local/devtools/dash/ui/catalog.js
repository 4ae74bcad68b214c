// The service catalog: each service with its endpoints (doc comment, method, path, auth, request and
// response fields) and the resources it owns.
import { html } from "./html.js";
import { Loading, useJson } from "./api.js";
import { typeText } from "./schema.js";
import { Markdown } from "./markdown.js";

function Fields({ title, schema }) {
  if (!schema) return html`<p class="muted" data-testid="no-fields" data-schema=${title}>${title}: none</p>`;
  return html`
    <table class="fields" data-testid="fields" data-schema=${title}>
      <caption>${title}</caption>
      <thead><tr><th>Field</th><th>Type</th><th>Where</th></tr></thead>
      <tbody>
        ${schema.fields.map(
          (f) => html`<tr>
            <td><code>${f.wireName}${f.optional ? "?" : ""}</code></td>
            <td><code>${typeText(f.type)}</code></td>
            <td>${f.place ?? (f.location === "default" ? "body" : f.location)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
  `;
}

function Endpoint({ ep }) {
  return html`
    <article class="endpoint" data-testid="endpoint" data-endpoint=${ep.id}>
      <h4>
        <span class="method">${ep.methods.join(", ")}</span> <code data-testid="endpoint-path">${ep.path}</code>
        <span class="name">${ep.name}</span>
        ${ep.auth ? html`<span class="pill" data-testid="auth">auth</span>` : null}
        ${ep.expose ? null : html`<span class="pill muted">private</span>`}
        ${ep.raw ? html`<span class="pill muted">raw</span>` : null}
        ${ep.expose ? html`<a class="try" href="#/explorer/${ep.id}">Try it</a>` : null}
      </h4>
      ${ep.doc ? html`<${Markdown} class="doc" text=${ep.doc} />` : null}
      ${
        ep.raw
          ? html`<p class="muted">Raw endpoint: reads and writes HTTP itself.</p>`
          : html`
        <div class="schemas">
          <${Fields} title="Request" schema=${ep.request} />
          <${Fields} title="Response" schema=${ep.response} />
        </div>`
      }
    </article>
  `;
}

export function Catalog() {
  const [catalog, error] = useJson("/api/catalog");
  if (!catalog) return html`<${Loading} error=${error} />`;
  return html`
    <section>
      <h2>Service catalog</h2>
      ${catalog.services.map(
        (s) => html`
          <div class="service" data-testid="service" data-service=${s.name}>
            <h3>${s.name} <span class="muted">${s.dir}/</span></h3>
            <p class="muted">
              ${s.databases.length ? `database ${s.databases.join(", ")}` : "no database"}
              ${s.subscriptions.map((x) => ` · subscribes to ${x.topic} as ${x.name}`)}
              ${s.cronJobs.map((c) => ` · cron ${c.id} (${c.schedule ?? `every ${c.everyMs / 1000}s`})`)}
              ${catalog.authHandler?.service === s.name ? ` · auth handler ${catalog.authHandler.name}` : ""}
            </p>
            ${s.endpoints.map((ep) => html`<${Endpoint} ep=${ep} />`)}
          </div>
        `,
      )}
    </section>
  `;
}
