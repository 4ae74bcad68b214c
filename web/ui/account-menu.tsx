// The header's account button: the signed-in email (shortened to fit on a phone, whole in the menu)
// opening a small menu with the account page and Log out, so the nav never wraps and the email never
// disappears.
import { useEffect, useRef, useState } from "preact/hooks";
import { logOut, type Session } from "./session";

/** Ends the session on the server, then shows the log-in screen. */
async function logOutToLogin(): Promise<void> {
  await logOut();
  location.hash = "#/login";
}

export function AccountMenu({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A click elsewhere, Escape or another page closes it; Escape gives the focus back to the button.
  useEffect(() => {
    if (!open) return;
    const onClick = (e: MouseEvent) => box.current?.contains(e.target as Node) || setOpen(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onHash = () => setOpen(false);
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    addEventListener("hashchange", onHash);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
      removeEventListener("hashchange", onHash);
    };
  }, [open]);
  return (
    <div class="account" ref={box}>
      <button
        ref={button}
        type="button"
        class="secondary account-button"
        aria-expanded={open}
        aria-controls="account-menu"
        title={`Signed in as ${session.email}`}
        onClick={() => setOpen(!open)}
      >
        <span class="email">{session.email}</span>
        <span aria-hidden="true" class="caret">
          ▾
        </span>
      </button>
      {open && (
        <div id="account-menu" class="account-menu" role="group" aria-label="Account">
          <p>
            <span class="muted">Signed in as</span>
            <br />
            <strong class="whole-email">{session.email}</strong>
          </p>
          <a href="#/account">Account and password</a>
          <button type="button" class="secondary" onClick={() => void logOutToLogin()}>
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
