// The database explorer: each database's tables with their rows a page at a time, a read-only SQL
// box (the server runs it in a READ ONLY transaction with a timeout and a row cap), and the
// migrations applied against the files on disk.
import { useState } from "preact/hooks";
import { html, ms } from "./html.js";
import { Loading, sendJson, useJson } from "./api.js";

const PAGE = 50;

/** Dirty, up to date or pending, as a pill. */
function DatabaseState({ d }) {
  if (d.error) return html`<span class="pill bad" data-testid="db-state">unreadable</span>`;
  if (d.dirty) return html`<span class="pill bad" data-testid="db-state">dirty</span>`;
  if (d.migrations.every((m) => m.applied)) return html`<span class="pill ok" data-testid="db-state">up to date</span>`;
  return html`<span class="pill bad" data-testid="db-state">pending</span>`;
}

/** Each database's migrations against the files on disk. */
function Migrations() {
  const [dbs, error] = useJson("/api/migrations");
  if (!dbs) return html`<${Loading} error=${error} />`;
  return html`
    <section class="migrations">
      ${dbs.map(
        (d) => html`
          <details class="card" data-testid="database" data-database=${d.database}>
            <summary><strong>${d.database}</strong> <span class="muted">(service ${d.service})</span> <${DatabaseState} d=${d} /> <span class="muted" data-testid="db-version">${d.error ? "version unknown" : d.version < 0 ? "no migration applied" : `version ${d.version}`}</span></summary>
            ${d.error ? html`<p class="error">${d.error}</p>` : null}
            <table class="list">
              <thead><tr><th>#</th><th>Migration</th><th>Status</th></tr></thead>
              <tbody>${d.migrations.map((m) => html`<tr data-testid="migration" data-state=${m.applied ? "applied" : "pending"}><td>${m.number}</td><td><code>${m.file}</code></td><td>${m.applied ? "applied" : html`<span class="error">pending</span>`}</td></tr>`)}</tbody>
            </table>
          </details>
        `,
      )}
    </section>
  `;
}

/** A result's rows as a table; NULL shown as such, long values cut to one line (the whole in a tooltip). */
function Rows({ result }) {
  return html`<div class="rows-scroll"><table class="list rows" data-testid="rows">
    <thead><tr>${result.columns.map((c) => html`<th>${c.name}</th>`)}</tr></thead>
    <tbody>
      ${result.rows.map(
        (r) =>
          html`<tr data-testid="row">${r.map((v) => (v === null ? html`<td class="null">NULL</td>` : html`<td title=${v.length > 80 ? v : undefined}>${v.length > 80 ? `${v.slice(0, 80)}…` : v}</td>`))}</tr>`,
      )}
    </tbody>
  </table></div>`;
}

function TableRows({ db, table }) {
  const [offset, setOffset] = useState(0);
  const [page, error] = useJson(`/api/databases/${db}/tables/${encodeURIComponent(table)}/rows?offset=${offset}&limit=${PAGE}`, [offset]);
  if (!page) return html`<${Loading} error=${error} />`;
  const last = offset + page.rows.length;
  return html`<div data-testid="table-rows" data-table=${table}>
    <p class="pager">
      <button class="small" data-testid="prev-page" disabled=${offset === 0} onClick=${() => setOffset(Math.max(0, offset - PAGE))}>← Previous</button>
      <span data-testid="page-range">${page.total === 0 ? "no rows" : `rows ${offset + 1}–${last} of ${page.total}`}</span>
      <button class="small" data-testid="next-page" disabled=${!page.truncated} onClick=${() => setOffset(offset + PAGE)}>Next →</button>
    </p>
    <${Rows} result=${page} />
  </div>`;
}

function QueryBox({ db }) {
  const [sql, setSql] = useState("");
  const [state, setState] = useState({ busy: false, result: null, error: null });
  const run = async () => {
    setState({ busy: true, result: null, error: null });
    try {
      setState({ busy: false, result: await sendJson(`/api/databases/${db}/query`, "POST", { sql }), error: null });
    } catch (e) {
      setState({ busy: false, result: null, error: e.message });
    }
  };
  const r = state.result;
  return html`<div class="query" data-testid="query-box">
    <label>SQL <span class="muted">(read-only: one statement, 5 s at most, 500 rows shown)</span>
      <textarea data-testid="sql" rows="4" spellcheck="false" placeholder="SELECT * FROM …" value=${sql}
        onInput=${(e) => setSql(e.target.value)} onKeyDown=${(e) => (e.ctrlKey || e.metaKey) && e.key === "Enter" && run()}></textarea>
    </label>
    <button data-testid="run-sql" disabled=${state.busy || sql.trim() === ""} onClick=${run}>${state.busy ? "Running…" : "Run"}</button>
    ${state.error ? html`<p class="error" data-testid="sql-error">${state.error}</p>` : null}
    ${r ? html`<p class="muted" data-testid="sql-summary">${r.rows.length} row${r.rows.length === 1 ? "" : "s"}${r.truncated ? " (more not shown)" : ""} · ${ms(r.durationMs)}</p><${Rows} result=${r} />` : null}
  </div>`;
}

function DatabaseView({ db }) {
  const [tables, error] = useJson(`/api/databases/${db}/tables`, [db]);
  const [table, setTable] = useState(null);
  if (!tables) return html`<${Loading} error=${error} />`;
  return html`<div class="db-view" data-testid="db-view" data-database=${db}>
    <div class="tables">
      <h3>Tables</h3>
      <ul data-testid="tables">
        ${tables.map(
          (t) => html`<li><button class="link ${t.name === table ? "active" : ""}" data-testid="table" data-table=${t.name}
            onClick=${() => setTable(t.name)}>${t.name}</button> <span class="muted">${t.estimatedRows >= 0 ? `~${t.estimatedRows}` : ""}</span></li>`,
        )}
      </ul>
    </div>
    <div class="grow table-area">
      ${table ? html`<h3>${table}</h3><${TableRows} key=${table} db=${db} table=${table} />` : html`<p class="muted">Pick a table to see its rows.</p>`}
      <${QueryBox} key=${db} db=${db} />
    </div>
  </div>`;
}

export function Databases() {
  const [dbs, error] = useJson("/api/migrations");
  const [db, setDb] = useState(null);
  if (!dbs) return html`<${Loading} error=${error} />`;
  const current = db ?? dbs[0]?.database;
  return html`
    <section>
      <h2>Databases</h2>
      <nav class="db-tabs">
        ${dbs.map((d) => html`<button class=${d.database === current ? "" : "secondary"} data-testid="db-tab" data-database=${d.database} onClick=${() => setDb(d.database)}>${d.database}</button>`)}
      </nav>
      ${current ? html`<${DatabaseView} key=${current} db=${current} />` : html`<p class="muted">The app declares no database.</p>`}
      <h3>Migrations</h3>
      <${Migrations} />
    </section>
  `;
}
