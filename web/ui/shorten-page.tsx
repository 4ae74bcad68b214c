// Shorten a URL (optionally with an alias, an expiry and the options under "More options": password,
// click limit, tags, device targets and UTM parameters), then show the short link, a Copy button and
// its QR code with a PNG download.
import { useState } from "preact/hooks";
import { call, type ShortenResponse } from "./api";
import { CopyButton } from "./copy-button";
import { formatDateTime } from "./dates";
import { FormError } from "./field";
import { apiErrors, checkDraft, EMPTY_DRAFT, withSchemes, type LinkErrors } from "./link-draft";
import { LinkFields } from "./link-fields";
import { usePageTitle } from "./page-title";
import { QrCode } from "./qr-download";
import { workspaceId } from "./workspace";

export function ShortenPage() {
  usePageTitle("Shorten a link");
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [errors, setErrors] = useState<LinkErrors>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ShortenResponse | null>(null);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    // The user sees the https:// that is sent, whether or not the rest passes.
    setDraft(withSchemes(draft));
    const { body, errors: found } = checkDraft(draft, "create", [location.hostname]);
    setErrors(found);
    if (Object.keys(found).length > 0) return setCreated(null);
    setBusy(true);
    try {
      setCreated(await call<ShortenResponse>("POST", "/shorten", { ...body, workspaceId: workspaceId() }));
      setDraft(EMPTY_DRAFT);
    } catch (err) {
      setCreated(null);
      setErrors(apiErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="shorten-title">
      <h1 id="shorten-title" tabIndex={-1}>
        Shorten a link
      </h1>
      <form class="card" onSubmit={submit} noValidate>
        <LinkFields mode="create" draft={draft} onDraft={setDraft} errors={errors} />
        <FormError message={errors.form ?? null} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            Shorten
          </button>
        </div>
      </form>
      {created && <NewLink link={created} />}
    </section>
  );
}

function NewLink({ link }: { link: ShortenResponse }) {
  return (
    <section class="card result" aria-labelledby="result-title">
      <h2 id="result-title">Your short link</h2>
      <div class="result-body">
        <div>
          <p class="short-url">
            <a href={link.shortUrl} target="_blank" rel="noopener">
              {link.shortUrl}
            </a>
          </p>
          <CopyButton text={link.shortUrl} />
          <p class="target" title={link.originalUrl}>
            Goes to {link.originalUrl}
          </p>
          {link.expiresAt && <p class="muted">Expires {formatDateTime(link.expiresAt)}</p>}
          <p>
            <a href={`#/links/${encodeURIComponent(link.code)}`}>Its details: edit, clicks</a>
          </p>
        </div>
        <QrCode link={link} />
      </div>
    </section>
  );
}
