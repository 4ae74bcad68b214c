// Shorten a URL (optionally with an alias and an expiry), then show the short link, a Copy
// button and its QR code.
import { useState } from "preact/hooks";
import { call, fieldErrors, type FieldErrors, type ShortenResponse } from "./api";
import { CopyButton } from "./copy-button";
import { formatDateTime } from "./dates";
import { Field, FormError } from "./field";

type ShortenField = "url" | "alias" | "expiresAt";

export function ShortenPage() {
  const [url, setUrl] = useState("");
  const [alias, setAlias] = useState("");
  const [expires, setExpires] = useState("");
  const [errors, setErrors] = useState<FieldErrors<ShortenField>>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ShortenResponse | null>(null);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const body: Record<string, string> = { url };
    if (alias.trim() !== "") body.alias = alias.trim();
    if (expires !== "") {
      const at = new Date(expires);
      if (Number.isNaN(at.getTime())) return setErrors({ expiresAt: "expiry is not a valid date and time" });
      body.expiresAt = at.toISOString();
    }
    setBusy(true);
    setErrors({});
    try {
      setCreated(await call<ShortenResponse>("POST", "/shorten", body));
      setUrl("");
      setAlias("");
      setExpires("");
    } catch (err) {
      setCreated(null);
      setErrors(fieldErrors(err, ["url", "alias", "expiresAt"], { already_exists: "alias" }));
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
        <Field
          label="Long URL"
          name="url"
          type="url"
          inputMode="url"
          autocomplete="off"
          placeholder="https://example.com/a/long/path"
          required
          value={url}
          onValue={setUrl}
          error={errors.url}
        />
        <div class="row">
          <Field
            label="Alias"
            name="alias"
            autocomplete="off"
            value={alias}
            onValue={setAlias}
            error={errors.alias}
            hint="Optional: 3 to 64 letters, digits, - or _."
          />
          <Field
            label="Expires"
            name="expires"
            type="datetime-local"
            value={expires}
            onValue={setExpires}
            error={errors.expiresAt}
            hint="Optional, in your time zone."
          />
        </div>
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
          {link.expiresAt && <p class="muted">Expires {formatDateTime(link.expiresAt)}</p>}
          <p>
            <a href={`#/links/${encodeURIComponent(link.code)}`}>See its clicks</a>
          </p>
        </div>
        <img class="qr" src={link.qrCodeUrl} width={160} height={160} alt={`QR code for ${link.shortUrl}`} />
      </div>
    </section>
  );
}
