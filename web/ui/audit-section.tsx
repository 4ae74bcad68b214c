// A workspace's audit log (owners and admins): newest first, who did what to which object and when,
// a page at a time with the API's cursor.
import { useEffect, useState } from "preact/hooks";
import { ApiError, call } from "./api";
import { formatDateTime } from "./dates";
import { FormError } from "./field";
import { TableHead } from "./table-head";
import type { Workspace } from "./workspace";

/** An entry as GET /workspaces/:id/audit answers it (url/audit.ts). */
interface AuditEntry {
  id: string;
  at: string;
  actor: { type: "user" | "key"; id: string; label: string };
  action: string;
  target: { type: string; id: string };
  details: Record<string, unknown>;
}

export function AuditSection({ workspace }: { workspace: Workspace }) {
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = async (after?: string) => {
    setLoading(true);
    setError(null);
    try {
      const query = after ? `?cursor=${encodeURIComponent(after)}` : "";
      const page = await call<{ entries: AuditEntry[]; nextCursor?: string }>("GET", `/workspaces/${workspace.id}/audit${query}`);
      setEntries((prev) => (after ? [...prev, ...page.entries] : page.entries));
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
    setLoading(false);
  };
  useEffect(() => void load(), [workspace.id]);

  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => load()}>
          Refresh
        </button>
      </div>
      <FormError message={error} />
      {!loading && entries.length === 0 && !error && <p class="muted">Nothing recorded yet.</p>}
      {entries.length > 0 && (
        <table class="grid audit" aria-busy={loading}>
          <TableHead columns={["When", "Who", "Action", "Target"]} />
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-action={e.action}>
                <td data-label="When">{formatDateTime(e.at)}</td>
                <td data-label="Who">
                  {e.actor.label} <span class="muted">({e.actor.type === "key" ? "API key" : "user"})</span>
                </td>
                <td data-label="Action">
                  <code>{e.action}</code>
                </td>
                <td data-label="Target">
                  {e.target.type} {e.target.id}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loading && <p class="muted">Loading…</p>}
      {cursor && !loading && (
        <button type="button" class="secondary" onClick={() => load(cursor)}>
          Load more
        </button>
      )}
    </section>
  );
}
