// A labelled input whose API error is shown beneath it and announced, tied to it for screen readers.
interface FieldProps {
  label: string;
  name: string;
  value: string;
  onValue: (v: string) => void;
  onBlur?: () => void;
  error?: string | null;
  hint?: string;
  type?: "text" | "email" | "password" | "url" | "datetime-local";
  autocomplete?: string;
  inputMode?: "url" | "email" | "text";
  placeholder?: string;
  required?: boolean;
}

export function Field(props: FieldProps) {
  const { label, name, value, onValue, onBlur, error, hint, type, ...input } = props;
  const id = `field-${name}`;
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        {...input}
        // preact types `type` as a union keyed by each value; any of ours is a text-like input.
        type={(type ?? "text") as "text"}
        id={id}
        name={name}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        onBlur={onBlur}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={described || undefined}
      />
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <p id={`${id}-error`} class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** An error that concerns no single field. */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
}
