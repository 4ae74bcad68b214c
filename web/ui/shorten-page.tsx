// Shorten a URL (optionally with an alias, an expiry and the options under "More options": password,
// click limit, tags, device targets and UTM parameters), then show the short link, a Copy button and
// its QR code.
import { useState } from "preact/hooks";
import { call, fieldErrors, type FieldErrors, type ShortenResponse } from "./api";
import { CopyButton } from "./copy-button";
import { formatDateTime } from "./dates";
import { Field, FormError } from "./field";
import { UtmBuilder } from "./utm-builder";
import { workspaceId } from "./workspace";
import type { UtmValues } from "../../url/utm-merge";
import { usePageTitle } from "./page-title";

const FIELDS = ["url", "alias", "expiresAt", "password", "maxClicks", "tags", "iosUrl", "androidUrl", "utm"] as const;
type ShortenField = (typeof FIELDS)[number];

/** The optional fields, as typed. */
interface Options {
  password: string;
  maxClicks: string;
  tags: string;
  iosUrl: string;
  androidUrl: string;
}

const NO_OPTIONS: Options = { password: "", maxClicks: "", tags: "", iosUrl: "", androidUrl: "" };

/** The request fields of the options that were filled in; a click limit that is not a number is left to the API to refuse. */
function optionFields(options: Options, utm: UtmValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (options.password !== "") body.password = options.password;
  if (options.maxClicks.trim() !== "") body.maxClicks = Number(options.maxClicks.trim());
  const tags = options.tags.split(/[,;\s]+/).filter((t) => t !== "");
  if (tags.length > 0) body.tags = tags;
  if (options.iosUrl.trim() !== "") body.iosUrl = options.iosUrl.trim();
  if (options.androidUrl.trim() !== "") body.androidUrl = options.androidUrl.trim();
  if (Object.values(utm).some((v) => v !== undefined && v.trim() !== "")) body.utm = utm;
  return body;
}

export function ShortenPage() {
  usePageTitle("Shorten a link");
  const [url, setUrl] = useState("");
  const [alias, setAlias] = useState("");
  const [expires, setExpires] = useState("");
  const [errors, setErrors] = useState<FieldErrors<ShortenField>>({});
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<ShortenResponse | null>(null);
  const [options, setOptions] = useState<Options>(NO_OPTIONS);
  const [utm, setUtm] = useState<UtmValues>({});
  const option = (name: keyof Options) => (value: string) => setOptions({ ...options, [name]: value });

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const body: Record<string, unknown> = { url, workspaceId: workspaceId(), ...optionFields(options, utm) };
    // Encore's own check of a tag's shape answers in regexp terms; say it in words before sending.
    const badTag = ((body.tags as string[] | undefined) ?? []).find((t) => !/^[A-Za-z0-9_-]{1,32}$/.test(t));
    if (badTag !== undefined) return setErrors({ tags: `"${badTag}" is not a tag: use 1 to 32 letters, digits, - or _` });
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
      setOptions(NO_OPTIONS);
      setUtm({});
    } catch (err) {
      setCreated(null);
      setErrors(fieldErrors(err, FIELDS, { already_exists: "alias" }));
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
        <details class="options" open={Object.keys(errors).some((f) => f !== "url" && f !== "alias" && f !== "expiresAt" && f !== "form")}>
          <summary>More options: password, click limit, tags, app links, UTM</summary>
          <div class="row">
            <Field
              label="Password"
              name="password"
              type="password"
              autocomplete="new-password"
              value={options.password}
              onValue={option("password")}
              error={errors.password}
              hint="Optional: visitors must enter it (8 to 128 characters)."
            />
            <Field
              label="Click limit"
              name="maxClicks"
              inputMode="text"
              autocomplete="off"
              value={options.maxClicks}
              onValue={option("maxClicks")}
              error={errors.maxClicks}
              hint="Optional: the link stops after this many clicks."
            />
          </div>
          <Field
            label="Tags"
            name="tags"
            autocomplete="off"
            value={options.tags}
            onValue={option("tags")}
            error={errors.tags}
            hint="Optional: up to 10, separated by commas; letters, digits, - and _."
          />
          <div class="row">
            <Field
              label="iPhone and iPad URL"
              name="iosUrl"
              type="url"
              inputMode="url"
              autocomplete="off"
              value={options.iosUrl}
              onValue={option("iosUrl")}
              error={errors.iosUrl}
              hint="Optional: where iOS visitors go instead."
            />
            <Field
              label="Android URL"
              name="androidUrl"
              type="url"
              inputMode="url"
              autocomplete="off"
              value={options.androidUrl}
              onValue={option("androidUrl")}
              error={errors.androidUrl}
              hint="Optional: where Android visitors go instead."
            />
          </div>
          <UtmBuilder url={url} utm={utm} onUtm={setUtm} error={errors.utm} />
        </details>
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
            <a href={`#/links/${encodeURIComponent(link.code)}`}>See its clicks</a>
          </p>
        </div>
        <img class="qr" src={link.qrCodeUrl} width={160} height={160} alt={`QR code for ${link.shortUrl}`} />
      </div>
    </section>
  );
}
