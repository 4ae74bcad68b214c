// A modal that asks before a link is deleted; Escape or Cancel keeps it.
import { useEffect, useRef } from "preact/hooks";
import type { Link } from "./api";

export function ConfirmDelete({ link, onConfirm, onCancel }: { link: Link; onConfirm: () => void; onCancel: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={onCancel}>
      <h2 id="confirm-title">Delete this link?</h2>
      <p>
        <strong>{link.shortUrl}</strong> will stop working, and its QR code with it. This cannot be undone.
      </p>
      <div class="actions">
        <button type="button" class="danger" onClick={onConfirm}>
          Delete
        </button>
        <button type="button" class="secondary" autofocus onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
