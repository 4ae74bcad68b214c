// Two screens, each with one button so Enter does what its title says: create an account (#/signup)
// or log in to one (#/login), each linking to the other.
import { useState } from "preact/hooks";
import { call, fieldErrors, type FieldErrors } from "./api";
import { Field, FormError } from "./field";
import { usePageTitle } from "./page-title";
import { sessionEndReason, signIn, type SessionTokens } from "./session";

type AuthField = "email" | "password";

/** AuthMode is which of the two screens is shown. */
export type AuthMode = "signup" | "login";

const SCREENS = {
  signup: {
    title: "Create your account",
    lead: "Shorten links, share them with a QR code and see where every click comes from.",
    button: "Sign up",
    busy: "Creating your account…",
    passwordHint: "At least 8 characters.",
    autocomplete: "new-password",
    other: { question: "Already have an account?", link: "Log in", href: "#/login" },
  },
  login: {
    title: "Log in",
    lead: "Welcome back. Log in to your links, their clicks and your team.",
    button: "Log in",
    busy: "Logging in…",
    passwordHint: undefined,
    autocomplete: "current-password",
    other: { question: "New here?", link: "Create an account", href: "#/signup" },
  },
} as const;

export function AuthPage({ mode }: { mode: AuthMode }) {
  const screen = SCREENS[mode];
  usePageTitle(screen.title);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [staySignedIn, setStaySignedIn] = useState(true);
  const [errors, setErrors] = useState<FieldErrors<AuthField>>({});
  const [busy, setBusy] = useState(false);
  const ended = mode === "login" ? sessionEndReason() : null;

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const persistent = mode === "signup" || staySignedIn;
      const tokens = await call<SessionTokens>("POST", `/auth/${mode}`, { email, password, staySignedIn: persistent });
      if (/^#\/(login|signup)$/.test(location.hash)) location.hash = "#/";
      signIn(tokens, email.trim(), persistent);
    } catch (err) {
      // A refused log-in concerns the pair; it is shown under the password, where the user retries.
      setErrors(fieldErrors(err, ["email", "password"], { already_exists: "email", unauthenticated: "password" }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="auth" aria-labelledby="auth-title">
      <h1 id="auth-title" tabIndex={-1}>
        {screen.title}
      </h1>
      <p class="lead">{screen.lead}</p>
      {ended && (
        <p class="notice" role="status">
          {ended}
        </p>
      )}
      <form class="card" onSubmit={submit} noValidate aria-labelledby="auth-title">
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
          autocomplete={screen.autocomplete}
          required
          value={password}
          onValue={setPassword}
          error={errors.password}
          hint={screen.passwordHint}
        />
        {mode === "login" && (
          <div class="stay">
            <input
              id="stay-signed-in"
              type="checkbox"
              checked={staySignedIn}
              onChange={(e) => setStaySignedIn(e.currentTarget.checked)}
              aria-describedby="stay-signed-in-hint"
            />
            <label for="stay-signed-in">Stay signed in</label>
            <p id="stay-signed-in-hint" class="hint">
              For 30 days on this browser. On a shared computer, untick it: closing the tab signs you out.
            </p>
          </div>
        )}
        <FormError message={errors.form ?? null} />
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? screen.busy : screen.button}
          </button>
        </div>
      </form>
      <p class="switch-auth">
        {screen.other.question} <a href={screen.other.href}>{screen.other.link}</a>
      </p>
    </section>
  );
}
