// A link's fields, one component for the shorten form and the edit form: the long URL (https:// added to
// a bare domain as the user leaves it), the alias (fixed once made), the expiry, and under "More
// options" the password, click limit, tags, app links and UTM parameters, each with its error beneath.
import { Field } from "./field";
import { withScheme, type DraftMode, type LinkDraft, type LinkErrors } from "./link-draft";
import { UtmBuilder } from "./utm-builder";

interface LinkFieldsProps {
  mode: DraftMode;
  draft: LinkDraft;
  onDraft: (draft: LinkDraft) => void;
  errors: LinkErrors;
  /** Edit mode: whether the link has a password now (it is never shown). */
  hasPassword?: boolean;
}

/** The app targets: where iPhone and Android visitors go instead of the long URL. */
const APP_TARGETS = [
  { name: "iosUrl", label: "iPhone and iPad URL", visitors: "iOS" },
  { name: "androidUrl", label: "Android URL", visitors: "Android" },
] as const;

/** The fields under "More options", opened when one of them holds an error. */
const OPTIONAL: readonly (keyof LinkErrors)[] = ["password", "maxClicks", "tags", "iosUrl", "androidUrl", "utm"];

export function LinkFields({ mode, draft, onDraft, errors, hasPassword }: LinkFieldsProps) {
  const set = (name: Exclude<keyof LinkDraft, "utm">) => (value: string) => onDraft({ ...draft, [name]: value });
  /** The props that tie a Field to one draft value and the API's error about it (the expiry's is expiresAt). */
  const bound = (name: Exclude<keyof LinkDraft, "utm">) => ({
    name,
    value: draft[name],
    onValue: set(name),
    error: errors[name === "expires" ? "expiresAt" : name],
  });
  const schemed = (name: "url" | "iosUrl" | "androidUrl") => () => {
    if (draft[name].trim() !== "" && withScheme(draft[name]) !== draft[name]) onDraft({ ...draft, [name]: withScheme(draft[name]) });
  };
  /** A hint in create mode starts "Optional:"; in edit mode it says how to clear the field. */
  const hint = (what: string, clear: string) =>
    mode === "create" ? `Optional: ${what}.` : `${what[0].toUpperCase()}${what.slice(1)}; ${clear}.`;
  return (
    <>
      <Field
        label="Long URL"
        {...bound("url")}
        type="url"
        inputMode="url"
        autocomplete="off"
        placeholder="https://example.com/a/long/path"
        required
        onBlur={schemed("url")}
        hint={mode === "create" ? "https:// is added to a bare domain such as example.com/page." : undefined}
      />
      <div class="row">
        {mode === "create" ? (
          <Field label="Alias" {...bound("alias")} autocomplete="off" hint="Optional: 3 to 64 letters, digits, - or _." />
        ) : (
          <div class="field">
            <span class="label">Short code</span>
            <p class="fixed" data-testid="code">
              {draft.alias}
            </p>
            <small class="hint">Fixed once made: printed QR codes and shared links use it.</small>
          </div>
        )}
        <Field
          label="Expires"
          {...bound("expires")}
          type="datetime-local"
          hint={mode === "create" ? "Optional, in your time zone." : "In your time zone; empty for never."}
        />
      </div>
      <details class="options" open={mode === "edit" || OPTIONAL.some((f) => errors[f] !== undefined)}>
        <summary>
          {mode === "create" ? "More options: password, click limit, tags, app links, UTM" : "Password, click limit, tags, app links, UTM"}
        </summary>
        {mode === "edit" && (
          <p data-testid="password-state">
            {hasPassword ? "Visitors must enter a password." : "No password: anyone with the link can follow it."}
          </p>
        )}
        <div class="row">
          <Field
            label={mode === "edit" && hasPassword ? "New password" : "Password"}
            {...bound("password")}
            type="password"
            autocomplete="new-password"
            hint={
              mode === "create"
                ? "Optional: visitors must enter it (8 to 128 characters)."
                : "8 to 128 characters; leave empty to keep things as they are."
            }
          />
          <Field
            label="Click limit"
            {...bound("maxClicks")}
            inputMode="text"
            autocomplete="off"
            hint={hint("the link stops after this many clicks", "empty for no limit")}
          />
        </div>
        <Field
          label="Tags"
          {...bound("tags")}
          autocomplete="off"
          hint={hint("up to 10, separated by commas: letters, digits, - and _", "empty for none")}
        />
        <div class="row">
          {APP_TARGETS.map((t) => (
            <Field
              key={t.name}
              label={t.label}
              {...bound(t.name)}
              type="url"
              inputMode="url"
              autocomplete="off"
              onBlur={schemed(t.name)}
              hint={hint(`where ${t.visitors} visitors go instead`, "empty to send them to the long URL")}
            />
          ))}
        </div>
        <UtmBuilder url={withScheme(draft.url)} utm={draft.utm} onUtm={(utm) => onDraft({ ...draft, utm })} error={errors.utm} />
      </details>
    </>
  );
}
