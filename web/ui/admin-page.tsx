// The site admins' page: open reports with the reported link and what to do about it (disable, flag,
// resolve, dismiss), and the blocklist (block a host, which disables its links; unblock one).
import { useState } from "preact/hooks";
import { call, type Json } from "./api";
import { formatDateTime } from "./dates";
import { Field, FormError } from "./field";
import { useLoad } from "./use-load";
import type { BlockedHost, Report, ReportStatus } from "../../url/abuse/admin-types";
import { usePageTitle } from "./page-title";

export function AdminPage() {
  usePageTitle("Admin");
  const [reload, setReload] = useState(0);
  const reports = useLoad(() => call<{ reports: Json<Report>[] }>("GET", "/admin/reports?status=open"), `r${reload}`);
  const blocked = useLoad(() => call<{ hosts: Json<BlockedHost>[] }>("GET", "/admin/blocklist"), `b${reload}`);
  const [host, setHost] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState("");

  const act = async (what: string, method: string, path: string, body?: unknown) => {
    setError(null);
    try {
      await call(method, path, body);
      setDone(what);
      setReload((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  /** Disables or flags a reported link (PATCH /admin/urls/:code). */
  const moderate = (r: Json<Report>, what: string, change: { disabled?: true; reason?: string; flagged?: true }) =>
    act(`${what} /${r.code}`, "PATCH", `/admin/urls/${r.code}`, change);
  /** Closes a report as resolved or dismissed (PATCH /admin/reports/:id). */
  const close = (r: Json<Report>, status: Exclude<ReportStatus, "open">, what: string) =>
    act(`${what} report ${r.id}`, "PATCH", `/admin/reports/${r.id}`, { status });

  if (reports.state === "error") {
    return (
      <section aria-labelledby="admin-title">
        <h1 id="admin-title" tabIndex={-1}>
          Admin
        </h1>
        <p class="error">{reports.message}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title" tabIndex={-1}>
        Admin
      </h1>
      <p role="status" class="muted">
        {done}
      </p>
      <FormError message={error} />
      <h2>Open reports</h2>
      {reports.state === "loading" && <p class="muted">Loading…</p>}
      {reports.state === "ready" && reports.data.reports.length === 0 && <p class="muted">No open reports.</p>}
      {reports.state === "ready" &&
        reports.data.reports.map((r) => (
          <article class="card" key={r.id} aria-label={`Report ${r.id}`}>
            <h3>
              /{r.code}: {r.reason}
            </h3>
            <p class="muted">{formatDateTime(r.createdAt)}</p>
            {r.details && <p>{r.details}</p>}
            {r.link ? (
              <p>
                Leads to <code>{r.link.originalUrl}</code>
                {r.link.disabled && " · disabled"}
                {r.link.flagged && " · flagged"}
              </p>
            ) : (
              <p class="muted">The link has been deleted.</p>
            )}
            <div class="actions">
              {r.link && !r.link.disabled && (
                <button
                  type="button"
                  class="danger"
                  onClick={() => moderate(r, "Disabled", { disabled: true, reason: `reported for ${r.reason}` })}
                >
                  Disable link
                </button>
              )}
              {r.link && !r.link.flagged && (
                <button type="button" class="secondary" onClick={() => moderate(r, "Flagged", { flagged: true })}>
                  Show a warning
                </button>
              )}
              <button type="button" class="secondary" onClick={() => close(r, "resolved", "Resolved")}>
                Resolve
              </button>
              <button type="button" class="secondary" onClick={() => close(r, "dismissed", "Dismissed")}>
                Dismiss
              </button>
            </div>
          </article>
        ))}
      <h2>Blocklist</h2>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          void act(`Blocked ${host}`, "POST", "/admin/blocklist", { host }).then(() => setHost(""));
        }}
      >
        <Field
          label="Host to block"
          name="block-host"
          value={host}
          onValue={setHost}
          required
          hint="Its subdomains are blocked too, and every link to it is disabled."
        />
        <div class="actions">
          <button type="submit">Block host</button>
        </div>
      </form>
      {blocked.state === "ready" && (
        <ul class="blocklist">
          {blocked.data.hosts.map((b) => (
            <li key={b.host}>
              <code>{b.host}</code> <span class="muted">{b.source === "file" ? "from BLOCKLIST_FILE" : formatDateTime(b.addedAt)}</span>{" "}
              {b.source === "admin" && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => act(`Unblocked ${b.host}`, "DELETE", `/admin/blocklist/${encodeURIComponent(b.host)}`)}
                >
                  Unblock
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
