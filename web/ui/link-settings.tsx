// A link's options on its page: tags, click limit, app links and its password (set or removed, never
// shown), saved with PATCH /urls/:code.
import { useEffect, useState } from "preact/hooks";
import { call, fieldErrors, type FieldErrors, type Link, type LinkPage } from "./api";
import { Field, FormError } from "./field";

const FIELDS = ["password", "maxClicks", "tags", "iosUrl", "androidUrl"] as const;
type SettingsField = (typeof FIELDS)[number];

/** findLink reads one of the caller's links through the search of GET /urls, following its pages. */
async function findLink(code: string): Promise<Link | null> {
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ q: code });
    if (cursor) query.set("cursor", cursor);
    const page = await call<LinkPage>("GET", `/urls?${query}`);
    const link = page.urls.find((l) => l.code === code);
    if (link) return link;
    cursor = page.nextCursor;
  } while (cursor);
  return null;
}

interface Form {
  tags: string;
  maxClicks: string;
  iosUrl: string;
  androidUrl: string;
  password: string;
}

function formOf(link: Link): Form {
  return {
    tags: link.tags.join(", "),
    maxClicks: link.maxClicks === null ? "" : String(link.maxClicks),
    iosUrl: link.iosUrl ?? "",
    androidUrl: link.androidUrl ?? "",
    password: "",
  };
}

export function LinkSettings({ code }: { code: string }) {
  const [link, setLink] = useState<Link | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<FieldErrors<SettingsField>>({});
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    findLink(code).then(
      (l) => (setLink(l), l && setForm(formOf(l))),
      (err: Error) => setErrors({ form: err.message }),
    );
  }, [code]);
  if (!link || !form) return <FormError message={errors.form ?? null} />;
  const set = (name: keyof Form) => (value: string) => setForm({ ...form, [name]: value });

  const save = async (body: Record<string, unknown>, done: string) => {
    setErrors({});
    setSaved(null);
    try {
      const updated = await call<Link>("PATCH", `/urls/${encodeURIComponent(code)}`, body);
      setLink(updated);
      setForm(formOf(updated));
      setSaved(done);
    } catch (err) {
      setErrors(fieldErrors(err, FIELDS));
    }
  };
  const submit = (e: SubmitEvent) => {
    e.preventDefault();
    const tags = form.tags.split(/[,;\s]+/).filter((t) => t !== "");
    const body: Record<string, unknown> = {
      tags: tags.length > 0 ? tags : null,
      maxClicks: form.maxClicks.trim() === "" ? null : Number(form.maxClicks.trim()),
      iosUrl: form.iosUrl.trim() === "" ? null : form.iosUrl.trim(),
      androidUrl: form.androidUrl.trim() === "" ? null : form.androidUrl.trim(),
    };
    if (form.password !== "") body.password = form.password;
    void save(body, "Saved.");
  };

  return (
    <form class="card" aria-labelledby="settings-title" onSubmit={submit} noValidate>
      <h2 id="settings-title">Settings</h2>
      <div class="row">
        <Field
          label="Tags"
          name="tags"
          autocomplete="off"
          value={form.tags}
          onValue={set("tags")}
          error={errors.tags}
          hint="Separated by commas."
        />
        <Field
          label="Click limit"
          name="maxClicks"
          autocomplete="off"
          value={form.maxClicks}
          onValue={set("maxClicks")}
          error={errors.maxClicks}
          hint="Empty for no limit."
        />
      </div>
      <div class="row">
        <Field label="iPhone and iPad URL" name="iosUrl" type="url" value={form.iosUrl} onValue={set("iosUrl")} error={errors.iosUrl} />
        <Field
          label="Android URL"
          name="androidUrl"
          type="url"
          value={form.androidUrl}
          onValue={set("androidUrl")}
          error={errors.androidUrl}
        />
      </div>
      <p data-testid="password-state">
        {link.hasPassword ? "Visitors must enter a password." : "No password: anyone with the link can follow it."}
      </p>
      <Field
        label={link.hasPassword ? "New password" : "Password"}
        name="password"
        type="password"
        autocomplete="new-password"
        value={form.password}
        onValue={set("password")}
        error={errors.password}
        hint="8 to 128 characters; leave empty to keep things as they are."
      />
      <FormError message={errors.form ?? null} />
      <div class="actions">
        <button type="submit">Save settings</button>
        {link.hasPassword && (
          <button type="button" class="secondary" onClick={() => void save({ password: null }, "Password removed.")}>
            Remove password
          </button>
        )}
        <span role="status">{saved}</span>
      </div>
    </form>
  );
}
