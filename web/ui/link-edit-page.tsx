// Edit one link: its target, expiry, password, click limit, tags, app links and UTM parameters, checked in
// the page and saved with PATCH /urls/:code; then back to its details.
import { useState } from "preact/hooks";
import { call, type Link } from "./api";
import { FormError } from "./field";
import { apiErrors, checkDraft, draftOf, withSchemes, type LinkErrors } from "./link-draft";
import { LinkFields } from "./link-fields";
import { usePageTitle } from "./page-title";
import { useLoad } from "./use-load";

export function LinkEditPage({ code }: { code: string }) {
  usePageTitle(`Edit ${code}`);
  const loaded = useLoad(() => call<Link>("GET", `/urls/${encodeURIComponent(code)}`), code);
  return (
    <section aria-labelledby="edit-title">
      <p>
        <a href={`#/links/${encodeURIComponent(code)}`}>← Back to the link</a>
      </p>
      <h1 id="edit-title" tabIndex={-1}>
        Edit {code}
      </h1>
      {loaded.state === "loading" && <p class="muted">Loading…</p>}
      {loaded.state === "error" && <FormError message={loaded.status === 404 ? "There is no such link among yours." : loaded.message} />}
      {loaded.state === "ready" &&
        (loaded.data.disabled ? (
          <p class="notice">The site's admins disabled this link, so it cannot be changed.</p>
        ) : (
          <EditForm link={loaded.data} />
        ))}
    </section>
  );
}

function EditForm({ link: initial }: { link: Link }) {
  const [link, setLink] = useState(initial);
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [errors, setErrors] = useState<LinkErrors>({});
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const path = `/urls/${encodeURIComponent(link.code)}`;

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    setDraft(withSchemes(draft));
    setStatus(null);
    const { body, errors: found } = checkDraft(draft, "edit", [location.hostname]);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await call<Link>("PATCH", path, body);
      location.hash = `#/links/${encodeURIComponent(link.code)}`;
    } catch (err) {
      setErrors(apiErrors(err));
    } finally {
      setBusy(false);
    }
  };
  const removePassword = async () => {
    setErrors({});
    try {
      setLink(await call<Link>("PATCH", path, { password: null }));
      setStatus("Password removed.");
    } catch (err) {
      setErrors(apiErrors(err));
    }
  };

  return (
    <form class="card" aria-label="Edit link" onSubmit={submit} noValidate>
      <LinkFields mode="edit" draft={draft} onDraft={setDraft} errors={errors} hasPassword={link.hasPassword} />
      <FormError message={errors.form ?? null} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save changes
        </button>
        <a class="button secondary" href={`#/links/${encodeURIComponent(link.code)}`}>
          Cancel
        </a>
        {link.hasPassword && (
          <button type="button" class="secondary" onClick={() => void removePassword()}>
            Remove password
          </button>
        )}
        <span role="status">{status}</span>
      </div>
    </form>
  );
}
