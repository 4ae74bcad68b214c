// The signed-in account: who you are, and a new password (which signs you out everywhere else).
import { useState } from "preact/hooks";
import { ApiError, call, fieldErrors, type FieldErrors } from "./api";
import { Field, FormError } from "./field";
import { usePageTitle } from "./page-title";
import { useSession } from "./session";

type PasswordField = "currentPassword" | "newPassword";

/** MIN_PASSWORD is the API's shortest new password (auth/credentials.ts), checked here to answer at once. */
const MIN_PASSWORD = 8;

/** What the change ended elsewhere, in words. */
function changedMessage(otherSessionsEnded: number): string {
  if (otherSessionsEnded === 0) return "Password changed. You were not signed in anywhere else.";
  const devices = otherSessionsEnded === 1 ? "1 other session" : `${otherSessionsEnded} other sessions`;
  return `Password changed. You were signed out of ${devices}; this one stays signed in.`;
}

/** The API's refusals in words, beside the field they concern. */
function passwordErrors(err: unknown): FieldErrors<PasswordField> {
  if (err instanceof ApiError && err.code === "permission_denied") return { currentPassword: "That is not your current password." };
  if (err instanceof ApiError && err.message.startsWith("newPassword must differ")) {
    return { newPassword: "That is your current password: choose a new one." };
  }
  return fieldErrors(err, ["currentPassword", "newPassword"]);
}

export function AccountPage() {
  usePageTitle("Account");
  const session = useSession();
  return (
    <section class="account-page" aria-labelledby="account-title">
      <h1 id="account-title" tabIndex={-1}>
        Account
      </h1>
      <p class="lead">
        Signed in as <strong>{session?.email}</strong>.{" "}
        {session?.persistent
          ? "This browser keeps you signed in until you log out or stay away for 30 days."
          : "Only in this tab: closing it signs you out."}
      </p>
      <ChangePassword />
    </section>
  );
}

function ChangePassword() {
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors<PasswordField>>({});
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    setDone(null);
    const missing: FieldErrors<PasswordField> = {};
    if (currentPassword === "") missing.currentPassword = "Enter your current password.";
    if ([...newPassword].length < MIN_PASSWORD) missing.newPassword = `Use at least ${MIN_PASSWORD} characters.`;
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    try {
      const { otherSessionsEnded } = await call<{ otherSessionsEnded: number }>("POST", "/auth/password", { currentPassword, newPassword });
      setCurrentPassword("");
      setNewPassword("");
      setDone(changedMessage(otherSessionsEnded));
    } catch (err) {
      setErrors(passwordErrors(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <p class="hint">Changing it signs you out on every other browser and device.</p>
      <form onSubmit={submit} noValidate>
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autocomplete="current-password"
          required
          value={currentPassword}
          onValue={setCurrentPassword}
          error={errors.currentPassword}
        />
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autocomplete="new-password"
          required
          value={newPassword}
          onValue={setNewPassword}
          error={errors.newPassword}
          hint={`At least ${MIN_PASSWORD} characters.`}
        />
        <FormError message={errors.form ?? null} />
        {done && (
          <p class="notice" role="status">
            {done}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? "Changing…" : "Change password"}
          </button>
        </div>
      </form>
    </section>
  );
}
