// A workspace's API keys (owners and admins): make one with scopes and an optional expiry, shown once
// to copy; the list with each key's prefix, scopes and use; revoke.
import { useState } from "preact/hooks";
import { ApiError, call, fieldErrors, type FieldErrors } from "./api";
import { CheckList } from "./check-list";
import { formatDateTime } from "./dates";
import { Field, FormError } from "./field";
import { RowAction } from "./row-action";
import { SecretOnce } from "./secret-once";
import { TableHead } from "./table-head";
import { useLoad } from "./use-load";
import type { Workspace } from "./workspace";
import { KEY_SCOPES, type KeyScope } from "../../url/key-scopes";

/** The create form's fields an API error can be about. */
type KeyField = "name" | "scopes" | "expiresAt";
const KEY_FIELDS: readonly KeyField[] = ["name", "scopes", "expiresAt"];

/** A key as GET /workspaces/:id/keys lists it (url/api-keys.ts): never the key itself. */
interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

function state(key: ApiKey): string {
  if (key.revokedAt) return `Revoked ${formatDateTime(key.revokedAt)}`;
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return `Expired ${formatDateTime(key.expiresAt)}`;
  return key.expiresAt ? `Expires ${formatDateTime(key.expiresAt)}` : "Never expires";
}

export function KeysSection({ workspace }: { workspace: Workspace }) {
  const [reload, setReload] = useState(0);
  const loaded = useLoad(() => call<{ keys: ApiKey[] }>("GET", `/workspaces/${workspace.id}/keys`), `${workspace.id}-${reload}`);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<KeyScope[]>(["links:read", "links:write"]);
  const [expires, setExpires] = useState("");
  const [errors, setErrors] = useState<FieldErrors<KeyField>>({});
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    setErrors({});
    if (scopes.length === 0) return setErrors({ scopes: "Pick at least one scope." });
    const body: Record<string, unknown> = { name, scopes };
    if (expires !== "") {
      const at = new Date(expires);
      if (Number.isNaN(at.getTime())) return setErrors({ expiresAt: "Give a date and time, or leave it empty." });
      body.expiresAt = at.toISOString();
    }
    try {
      setCreated(await call<{ name: string; key: string }>("POST", `/workspaces/${workspace.id}/keys`, body));
      setName("");
      setExpires("");
      setReload((n) => n + 1);
    } catch (err) {
      setErrors(fieldErrors(err, KEY_FIELDS));
    }
  };
  const revoke = async (key: ApiKey) => {
    setErrors({});
    try {
      await call("DELETE", `/workspaces/${workspace.id}/keys/${key.id}`);
      setReload((n) => n + 1);
    } catch (err) {
      setErrors({ form: err instanceof ApiError ? err.message : String(err) });
    }
  };

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">
        A script sends a key as <code>Authorization: Bearer sk_…</code>; it acts only in this workspace, with its scopes.
      </p>
      <form class="card" onSubmit={create} aria-label="New API key">
        <Field label="Key name" name="key-name" value={name} onValue={setName} error={errors.name} required placeholder="Deploy script" />
        <CheckList legend="Scopes" options={KEY_SCOPES} chosen={scopes} onChosen={setScopes} error={errors.scopes} />
        <Field
          label="Expires (optional)"
          name="key-expires"
          type="datetime-local"
          value={expires}
          onValue={setExpires}
          error={errors.expiresAt}
        />
        <FormError message={errors.form ?? null} />
        <div class="actions">
          <button type="submit">Create key</button>
        </div>
      </form>
      {created && <SecretOnce what={`the key “${created.name}”`} secret={created.key} testId="new-key" />}
      {loaded.state === "error" && <p class="error">{loaded.message}</p>}
      {loaded.state === "ready" && loaded.data.keys.length === 0 && <p class="muted">No keys yet.</p>}
      {loaded.state === "ready" && loaded.data.keys.length > 0 && (
        <table class="grid keys">
          <TableHead columns={["Name", "Prefix", "Scopes", "Created", "Last used", "State"]} actions />
          <tbody>
            {loaded.data.keys.map((key) => (
              <tr key={key.id} aria-label={key.name}>
                <td>{key.name}</td>
                <td data-label="Prefix">
                  <code>{key.prefix}…</code>
                </td>
                <td data-label="Scopes">{key.scopes.join(", ")}</td>
                <td data-label="Created">{formatDateTime(key.createdAt)}</td>
                <td data-label="Last used">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
                <td data-label="State">{state(key)}</td>
                <RowAction label="Revoke" onClick={key.revokedAt ? undefined : () => revoke(key)} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
