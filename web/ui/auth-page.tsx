// Sign up or log in with an email and a password; both give a token the session keeps.
import { useState } from "preact/hooks";
import { call, fieldErrors, type AuthToken, type FieldErrors } from "./api";
import { Field, FormError } from "./field";
import { sessionEndReason, signIn } from "./session";
import { usePageTitle } from "./page-title";

type AuthField = "email" | "password";

export function AuthPage() {
  usePageTitle("Log in or sign up");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<AuthField>>({});
  const [busy, setBusy] = useState(false);
  const ended = sessionEndReason();

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const action = (e.submitter as HTMLButtonElement | null)?.value === "signup" ? "signup" : "login";
    setBusy(true);
    setErrors({});
    try {
      const t = await call<AuthToken>("POST", `/auth/${action}`, { email, password });
      signIn({ token: t.token, expiresAt: t.expiresAt, email: email.trim() });
    } catch (err) {
      // A refused log-in concerns the pair; it is shown under the password, where the user retries.
      setErrors(fieldErrors(err, ["email", "password"], { already_exists: "email", unauthenticated: "password" }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="auth-title">
      <h1 id="auth-title" tabIndex={-1}>
        Short links you can share
      </h1>
      <p class="lead">Sign up or log in to shorten links, see their clicks and manage them.</p>
      {ended && <p class="notice">{ended}</p>}
      <form class="card" onSubmit={submit} noValidate>
        <Field
          label="Email"
          name="email"
          type="email"
          autocomplete="email"
          required
          value={email}
          onValue={setEmail}
          error={errors.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={errors.password}
          hint="At least 8 characters to sign up."
        />
        <FormError message={errors.form ?? null} />
        <div class="actions">
          <button type="submit" value="login" disabled={busy}>
            Log in
          </button>
          <button type="submit" value="signup" class="secondary" disabled={busy}>
            Sign up
          </button>
        </div>
      </form>
    </section>
  );
}
